package kafkatest

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"
)

// The environment of the MirrorMaker 2 tests (.ci/mm2 sets it): two real
// clusters and a MirrorMaker 2 replicating EnvMM2Source (alias
// EnvMM2SourceAlias, "src") to EnvMM2Target, topics and groups matching
// "mm2-.*", checkpoints every second.
const (
	EnvMM2Source      = "KCG_TEST_MM2_SOURCE"
	EnvMM2Target      = "KCG_TEST_MM2_TARGET"
	EnvMM2SourceAlias = "KCG_TEST_MM2_SOURCE_ALIAS"
)

// MM2 returns the source and target clusters of the MirrorMaker 2 tests
// and the source's alias, or skips the test when .ci/mm2 did not set them
// up.
func MM2(t testing.TB) (src, dst *Env, alias string) {
	t.Helper()
	s, d := strings.TrimSpace(os.Getenv(EnvMM2Source)), strings.TrimSpace(os.Getenv(EnvMM2Target))
	if s == "" || d == "" {
		t.Skipf("needs two clusters and a real MirrorMaker 2 between them: %s and %s are set by .ci/mm2", EnvMM2Source, EnvMM2Target)
	}
	alias = os.Getenv(EnvMM2SourceAlias)
	if alias == "" {
		alias = "src"
	}
	return clusterAt(t, s), clusterAt(t, d), alias
}

// clusterAt is a real cluster at addr, not shared with Cluster's.
func clusterAt(t testing.TB, addr string) *Env {
	t.Helper()
	c, tr := newClient(addr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.Metadata(ctx, &kafka.MetadataRequest{}); err != nil {
		t.Fatalf("kafkatest: the cluster at %s does not answer: %v", addr, err)
	}
	t.Cleanup(tr.CloseIdleConnections)
	return &Env{Real: true, Bootstrap: addr, Version: os.Getenv(EnvVersion), ToolsVersion: os.Getenv(EnvToolsVersion), Client: c, Transport: tr}
}
