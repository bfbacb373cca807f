// Package testoidc is the OIDC identity provider of kcg's OAUTHBEARER
// tests: a token endpoint (the client credentials grant, RFC 6749 §4.4)
// that signs short-lived RS256 JWTs with a key generated at start, and the
// JWKS endpoint a Kafka broker's OAuthBearerValidatorCallbackHandler
// verifies them with. Tests only (and .ci/auth-oauth, through
// internal/testoidc/cmd/testoidc); never part of kcg.
//
// RS256 signing and the JWKS document are the standard library's
// crypto/rsa and encoding/json: a dozen lines, no JOSE library needed.
package testoidc

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Config says whom the server knows and what it issues.
type Config struct {
	// Clients maps client ids to their secrets.
	Clients map[string]string
	// Lifetime of each token (default 20 s, short so refresh is exercised).
	Lifetime time.Duration
	// Audience is the aud claim (empty: none).
	Audience string
	// Issuer is the iss claim (empty: the server's URL).
	Issuer string
}

// Server is a running identity provider.
type Server struct {
	cfg Config
	key *rsa.PrivateKey
	kid string
	ln  net.Listener
	srv *http.Server

	mu     sync.Mutex
	issued map[string]int // client id -> tokens issued
}

// Start listens on addr ("127.0.0.1:0" for a free port) and serves
// /token, /jwks and /stats (JSON: tokens issued per client).
func Start(addr string, cfg Config) (*Server, error) {
	if cfg.Lifetime <= 0 {
		cfg.Lifetime = 20 * time.Second
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, key: key, kid: fmt.Sprintf("kcg-test-%d", time.Now().UnixNano()), ln: ln, issued: map[string]int{}}
	if s.cfg.Issuer == "" {
		s.cfg.Issuer = s.URL()
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/token", s.token)
	mux.HandleFunc("/jwks", s.jwks)
	mux.HandleFunc("/stats", s.stats)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// URL is the server's base URL, http://127.0.0.1:PORT.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// TokenURL is the token endpoint.
func (s *Server) TokenURL() string { return s.URL() + "/token" }

// JWKSURL is the JWKS endpoint.
func (s *Server) JWKSURL() string { return s.URL() + "/jwks" }

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Issued returns how many tokens client has been given.
func (s *Server) Issued(client string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.issued[client]
}

func oauthError(w http.ResponseWriter, code int, kind, desc string) {
	w.Header().Set("Content-Type", "application/json")
	if code == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="testoidc"`)
	}
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": kind, "error_description": desc})
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		oauthError(w, http.StatusMethodNotAllowed, "invalid_request", "POST only")
		return
	}
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "bad form")
		return
	}
	if gt := r.PostForm.Get("grant_type"); gt != "client_credentials" {
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "only client_credentials")
		return
	}
	id, secret, ok := basicAuth(r)
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	want, known := s.cfg.Clients[id]
	if !known || id == "" || secret != want {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "client authentication failed")
		return
	}
	now := time.Now()
	claims := map[string]any{
		"iss": s.cfg.Issuer, "sub": id, "iat": now.Unix(), "nbf": now.Unix(),
		"exp": now.Add(s.cfg.Lifetime).Unix(), "jti": fmt.Sprintf("%d", now.UnixNano()),
	}
	if s.cfg.Audience != "" {
		claims["aud"] = s.cfg.Audience
	}
	if sc := r.PostForm.Get("scope"); sc != "" {
		claims["scope"] = sc
	}
	tok, err := s.sign(claims)
	if err != nil {
		oauthError(w, http.StatusInternalServerError, "server_error", err.Error())
		return
	}
	s.mu.Lock()
	s.issued[id]++
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"access_token": tok, "token_type": "Bearer", "expires_in": int(s.cfg.Lifetime / time.Second),
	})
}

// basicAuth reads RFC 6749 §2.3.1 client authentication: the id and
// secret are form-urlencoded inside the Basic credentials.
func basicAuth(r *http.Request) (id, secret string, ok bool) {
	u, p, ok := r.BasicAuth()
	if !ok {
		return "", "", false
	}
	id, err1 := urlDecode(u)
	secret, err2 := urlDecode(p)
	return id, secret, err1 == nil && err2 == nil
}

func urlDecode(s string) (string, error) { return url.QueryUnescape(s) }

// sign returns the compact RS256 JWS of claims.
func (s *Server) sign(claims map[string]any) (string, error) {
	enc := base64.RawURLEncoding
	h, err := json.Marshal(map[string]string{"alg": "RS256", "typ": "JWT", "kid": s.kid})
	if err != nil {
		return "", err
	}
	c, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	input := enc.EncodeToString(h) + "." + enc.EncodeToString(c)
	sum := sha256.Sum256([]byte(input))
	sig, err := rsa.SignPKCS1v15(rand.Reader, s.key, crypto.SHA256, sum[:])
	if err != nil {
		return "", err
	}
	return input + "." + enc.EncodeToString(sig), nil
}

func (s *Server) jwks(w http.ResponseWriter, _ *http.Request) {
	enc := base64.RawURLEncoding
	pub := s.key.PublicKey
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
		"kty": "RSA", "use": "sig", "alg": "RS256", "kid": s.kid,
		"n": enc.EncodeToString(pub.N.Bytes()),
		"e": enc.EncodeToString(big.NewInt(int64(pub.E)).Bytes()),
	}}})
}

func (s *Server) stats(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"issued": s.issued})
}
