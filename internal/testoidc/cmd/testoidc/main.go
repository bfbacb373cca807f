// Command testoidc runs internal/testoidc's identity provider for
// .ci/auth-oauth: it writes its token and JWKS URLs to -url-file (one
// KEY=VALUE line each, for a shell to source) and serves until killed.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/kcg-dev/kcg/internal/testoidc"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	clients := flag.String("clients", "kcg-test-client:kcg-test-client-secret", "ID:SECRET[,ID:SECRET]")
	lifetime := flag.Duration("lifetime", 20*time.Second, "token lifetime")
	audience := flag.String("audience", "", "aud claim")
	urlFile := flag.String("url-file", "", "write KCG_TEST_OAUTH_TOKEN_URL=... and KCG_TEST_OAUTH_JWKS_URL=... here")
	flag.Parse()
	cfg := testoidc.Config{Clients: map[string]string{}, Lifetime: *lifetime, Audience: *audience}
	for _, c := range strings.Split(*clients, ",") {
		id, secret, ok := strings.Cut(c, ":")
		if !ok || id == "" {
			fmt.Fprintf(os.Stderr, "testoidc: -clients: %q is not ID:SECRET\n", c)
			os.Exit(64)
		}
		cfg.Clients[id] = secret
	}
	s, err := testoidc.Start(*addr, cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "testoidc: %v\n", err)
		os.Exit(1)
	}
	lines := fmt.Sprintf("KCG_TEST_OAUTH_TOKEN_URL=%s\nKCG_TEST_OAUTH_JWKS_URL=%s\nKCG_TEST_OAUTH_STATS_URL=%s/stats\n", s.TokenURL(), s.JWKSURL(), s.URL())
	if *urlFile != "" {
		tmp := *urlFile + ".tmp"
		if err := os.WriteFile(tmp, []byte(lines), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "testoidc: %v\n", err)
			os.Exit(1)
		}
		if err := os.Rename(tmp, *urlFile); err != nil {
			fmt.Fprintf(os.Stderr, "testoidc: %v\n", err)
			os.Exit(1)
		}
	}
	fmt.Print(lines)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	_ = s.Close()
}
