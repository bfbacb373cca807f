package connconfig

// OAUTHBEARER token sources that make their token: the KIP-768 client
// credentials grant against an OIDC token endpoint, and the unsecured JWS
// of Kafka's OAuthBearerUnsecuredLoginCallbackHandler.
//
// The grant is one form POST (RFC 6749 §4.4) with HTTP Basic client
// authentication, exactly as Kafka's HttpAccessTokenRetriever sends it;
// net/http does it in a few lines, so no OAuth library is pulled in.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// refreshFactor is sasl.login.refresh.window.factor's default: a token is
// replaced once 80% of its lifetime has passed.
const refreshFactor = 0.8

// oidcToken fetches tokens with the client credentials grant and caches
// each until refreshFactor of its lifetime has passed.
type oidcToken struct {
	endpoint *url.URL
	clientID string
	secret   string
	scope    string
	factor   float64
	now      func() time.Time

	mu        sync.Mutex
	tok       string
	refreshAt time.Time
	exp       time.Time
}

// clientCredentials builds the client credentials source from the flags,
// the profile and the login module's clientId, clientSecret and scope.
func (r *resolver) clientCredentials(u *url.URL, opts map[string]string) (*oidcToken, error) {
	// Kafka 4.1+ (KIP-1139) has keys of its own for what the login
	// module's options say; as in Java, the key wins over the option.
	id := r.o.SASLUsername
	if id == "" {
		id = r.get("sasl.oauthbearer.client.credentials.client.id")
	}
	if id == "" {
		id = opts["clientId"]
	}
	secret := r.o.SASLPassword
	if secret == "" && r.prof != nil {
		p, err := r.prof.password()
		if err != nil {
			return nil, err
		}
		secret = p
	}
	if secret == "" {
		secret = r.get("sasl.oauthbearer.client.credentials.client.secret")
	}
	if secret == "" {
		secret = opts["clientSecret"]
	}
	if id == "" {
		return nil, usageErr("--sasl-username", "OAUTHBEARER with a token endpoint needs a client id: clientId=\"...\" in sasl.jaas.config's OAuthBearerLoginModule, or --sasl-username")
	}
	if secret == "" {
		return nil, usageErr("--sasl-password", "OAUTHBEARER with a token endpoint needs a client secret: clientSecret=\"...\" in sasl.jaas.config, KCG_SASL_PASSWORD, --sasl-password or the profile's sasl.passwordEnv/passwordFile")
	}
	scope := r.o.SASLOAuthScope
	if scope == "" {
		scope = r.get("sasl.oauthbearer.scope")
	}
	if scope == "" {
		scope = opts["scope"]
	}
	t := &oidcToken{endpoint: u, clientID: id, secret: secret, scope: scope, factor: refreshFactor, now: time.Now}
	if v := r.get("sasl.login.refresh.window.factor"); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0.5 || f > 1 {
			return nil, r.dataErr("sasl.login.refresh.window.factor", "must be a number from 0.5 to 1.0", nil)
		}
		t.factor = f
	}
	return t, nil
}

func (t *oidcToken) token(ctx context.Context) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tok != "" && t.now().Before(t.refreshAt) {
		return t.tok, nil
	}
	tok, exp, iat, err := t.fetchRetrying(ctx)
	if err != nil {
		if t.tok != "" && t.now().Before(t.exp) {
			// The identity provider blinked; the cached token still
			// works until it expires.
			return t.tok, nil
		}
		return "", err
	}
	if iat.IsZero() || iat.After(t.now()) {
		iat = t.now()
	}
	t.tok, t.exp = tok, exp
	t.refreshAt = iat.Add(time.Duration(float64(exp.Sub(iat)) * t.factor))
	return tok, nil
}

// Token endpoint retries, as Java's sasl.login.retry.backoff.ms (100 ms,
// doubling): an identity provider that blinks (a refused connection, 429,
// 5xx) is asked again, a few times, within the connection's deadline. A
// refusal of the client (4xx) is final.
const (
	tokenAttempts     = 3
	tokenFirstBackoff = 100 * time.Millisecond
)

// transient marks a fetch failure worth another attempt.
type transient struct{ error }

func (t transient) Unwrap() error { return t.error }

func (t *oidcToken) fetchRetrying(ctx context.Context) (tok string, exp, iat time.Time, err error) {
	wait := tokenFirstBackoff
	for attempt := 1; ; attempt++ {
		tok, exp, iat, err = t.fetch(ctx)
		var tr transient
		if err == nil || !errors.As(err, &tr) || attempt == tokenAttempts {
			if errors.As(err, &tr) {
				err = tr.error
			}
			return tok, exp, iat, err
		}
		select {
		case <-ctx.Done():
			return tok, exp, iat, tr.error
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// fetch asks the token endpoint for a token once.
func (t *oidcToken) fetch(ctx context.Context) (tok string, exp, iat time.Time, err error) {
	where := "the token endpoint " + redactURL(t.endpoint)
	form := url.Values{"grant_type": {"client_credentials"}}
	if t.scope != "" {
		form.Set("scope", t.scope)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.endpoint.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return "", exp, iat, &MechanismError{Mechanism: mechOAuth, Msg: "cannot ask " + where, Err: err}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(t.clientID)+":"+url.QueryEscape(t.secret))))
	resp, err := httpClient.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is in the message already
		}
		return "", exp, iat, transient{&MechanismError{Mechanism: mechOAuth, Msg: fmt.Sprintf("cannot reach %s (check %s and that the identity provider is up)", where, keyTokenEndpoint), Err: err}}
	}
	defer resp.Body.Close()
	body, err := readLimited(resp.Body, 1<<20)
	if err != nil {
		return "", exp, iat, &MechanismError{Mechanism: mechOAuth, Msg: "reading the answer of " + where, Err: err}
	}
	var ans struct {
		AccessToken string `json:"access_token"`
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	jerr := json.Unmarshal(body, &ans)
	if resp.StatusCode/100 != 2 {
		msg := fmt.Sprintf("%s refused the client (HTTP %d", where, resp.StatusCode)
		if jerr == nil && ans.Error != "" {
			msg += ": " + printable(ans.Error)
			if ans.Description != "" {
				msg += ", " + printable(ans.Description)
			}
		}
		me := &MechanismError{Mechanism: mechOAuth, Msg: msg + "): check clientId, clientSecret and scope"}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			me.Msg = strings.Replace(msg, " refused the client (", " failed (", 1) + "): the identity provider is failing; try again later"
			return "", exp, iat, transient{me}
		}
		return "", exp, iat, me
	}
	if jerr != nil || ans.AccessToken == "" {
		return "", exp, iat, &MechanismError{Mechanism: mechOAuth, Msg: where + " answered without an access_token (is it the token endpoint, not the issuer or JWKS URL?)"}
	}
	exp, iat, err = jwtTimes(ans.AccessToken)
	if err != nil {
		return "", exp, iat, &MechanismError{Mechanism: mechOAuth, Msg: "the access token from " + where + " " + err.Error()}
	}
	if !exp.After(t.now()) {
		return "", exp, iat, &MechanismError{Mechanism: mechOAuth, Msg: fmt.Sprintf("the access token from %s expired at %s already (check this machine's clock)", where, exp.UTC().Format(time.RFC3339))}
	}
	return ans.AccessToken, exp, iat, nil
}

// unsecuredToken builds the unsecured JWS ({"alg":"none"}) of Kafka's
// OAuthBearerUnsecuredLoginCallbackHandler from the login module's
// unsecuredLogin* options. Only a broker with the unsecured validator (a
// development setup) accepts it.
type unsecuredToken struct {
	claims   map[string]any
	lifetime time.Duration
	now      func() time.Time
}

// unsecuredSource reads the unsecuredLogin* options as Java does:
// unsecuredLoginStringClaim_NAME, unsecuredLoginNumberClaim_NAME,
// unsecuredLoginListClaim_NAME (its first character is the separator),
// unsecuredLoginPrincipalClaimName (default sub),
// and unsecuredLoginLifetimeSeconds (default 3600). encoding/json writes
// the claims sorted by name.
func (r *resolver) unsecuredSource(opts map[string]string) (*unsecuredToken, error) {
	t := &unsecuredToken{claims: map[string]any{}, lifetime: time.Hour, now: time.Now}
	bad := func(msg string) error { return r.dataErr("sasl.jaas.config", msg, nil) }
	principal := "sub"
	for k, v := range opts {
		switch {
		case strings.HasPrefix(k, "unsecuredLoginStringClaim_"):
			t.claims[strings.TrimPrefix(k, "unsecuredLoginStringClaim_")] = v
		case strings.HasPrefix(k, "unsecuredLoginNumberClaim_"):
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, bad("option " + k + " must be a number")
			}
			t.claims[strings.TrimPrefix(k, "unsecuredLoginNumberClaim_")] = n
		case strings.HasPrefix(k, "unsecuredLoginListClaim_"):
			if v == "" {
				t.claims[strings.TrimPrefix(k, "unsecuredLoginListClaim_")] = []string{}
				continue
			}
			items := []string{}
			for _, s := range strings.Split(v[1:], v[:1]) {
				if s != "" {
					items = append(items, s)
				}
			}
			t.claims[strings.TrimPrefix(k, "unsecuredLoginListClaim_")] = items
		case k == "unsecuredLoginPrincipalClaimName":
			principal = v
		case k == "unsecuredLoginLifetimeSeconds":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return nil, bad("option unsecuredLoginLifetimeSeconds must be a positive number of seconds")
			}
			t.lifetime = time.Duration(n) * time.Second
		case k == "clientId" || k == "clientSecret" || k == "scope":
			return nil, bad(fmt.Sprintf("option %s needs a token endpoint: set %s (Java ignores it without one and the OIDC login callback handler)", k, keyTokenEndpoint))
		}
	}
	for _, reserved := range []string{"iat", "exp"} {
		if _, ok := t.claims[reserved]; ok {
			return nil, bad("the unsecured token's " + reserved + " claim is set by the client, not by an option")
		}
	}
	if s, ok := t.claims[principal].(string); !ok || s == "" {
		return nil, bad(fmt.Sprintf("OAUTHBEARER needs a token: set %s (with clientId and clientSecret in the login module), or for a development broker with the unsecured validator unsecuredLoginStringClaim_%s=\"NAME\"", keyTokenEndpoint, principal))
	}
	return t, nil
}

func (t *unsecuredToken) token(context.Context) (string, error) {
	now := t.now()
	claims := make(map[string]any, len(t.claims)+2)
	for k, v := range t.claims {
		claims[k] = v
	}
	// Java writes seconds with a fraction (milliseconds / 1000.0).
	claims["iat"] = float64(now.UnixMilli()) / 1000
	claims["exp"] = float64(now.Add(t.lifetime).UnixMilli()) / 1000
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", &MechanismError{Mechanism: mechOAuth, Msg: "building the unsecured token", Err: err}
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(`{"alg":"none"}`)) + "." + enc.EncodeToString(payload) + ".", nil
}
