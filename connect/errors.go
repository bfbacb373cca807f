package connect

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/kcg-dev/kcg/vocab"
)

// Error is a Connect request that failed: the worker did not answer (Err),
// or answered a non-2xx status with Connect's error body
// ({"error_code":N,"message":"..."}: Message).
type Error struct {
	URL, Method, Path string
	Status            int
	Message           string
	Err               error
}

func (e *Error) Error() string {
	where := fmt.Sprintf("Kafka Connect %s: %s %s", e.URL, e.Method, e.Path)
	if e.Err != nil {
		return where + ": " + vocab.OneLine(e.Err.Error())
	}
	msg := vocab.OneLine(e.Message)
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	hint := ""
	switch e.Status {
	case http.StatusConflict:
		hint = " (409: Connect is rebalancing or busy; try again when the workers settle)"
	case http.StatusUnauthorized, http.StatusForbidden:
		hint = fmt.Sprintf(" (%d: check the Connect user and password)", e.Status)
	default:
		hint = fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	return where + ": " + msg + hint
}

func (e *Error) Unwrap() error { return e.Err }

// NotFound reports whether Connect answered 404 (no such connector).
func (e *Error) NotFound() bool { return e.Status == http.StatusNotFound }

// ErrorKind: a connector Connect does not know is a refusal (nothing was
// done); everything else is a runtime failure.
func (e *Error) ErrorKind() vocab.Kind {
	if e.NotFound() {
		return vocab.KindRefused
	}
	return vocab.KindFailed
}

// IsNotFound reports whether err is Connect's 404.
func IsNotFound(err error) bool {
	var ce *Error
	return errors.As(err, &ce) && ce.NotFound()
}

func httpError(base, method, path string, status int, body []byte) *Error {
	var w struct {
		Code    int    `json:"error_code"`
		Message string `json:"message"`
	}
	e := &Error{URL: base, Method: method, Path: path, Status: status}
	if json.Unmarshal(body, &w) == nil && w.Message != "" {
		e.Message = w.Message
	} else {
		s := strings.TrimSpace(string(body))
		if len(s) > 200 {
			s = s[:200] + "…"
		}
		e.Message = s
	}
	return e
}

// Version is a Connect worker's major.minor.
type Version struct{ Major, Minor int }

// ParseVersion reads "3.6.1", "4.4.0-SNAPSHOT" and the like.
func ParseVersion(s string) (Version, bool) {
	parts := strings.SplitN(s, ".", 3)
	if len(parts) < 2 {
		return Version{}, false
	}
	maj, err1 := strconv.Atoi(parts[0])
	minor := parts[1]
	if i := strings.IndexFunc(minor, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		minor = minor[:i]
	}
	mi, err2 := strconv.Atoi(minor)
	if err1 != nil || err2 != nil {
		return Version{}, false
	}
	return Version{maj, mi}, true
}

// AtLeast reports whether v is maj.min or later.
func (v Version) AtLeast(maj, min int) bool {
	return v.Major > maj || (v.Major == maj && v.Minor >= min)
}

// HasStop reports whether the worker has PUT stop and GET offsets (3.5).
func (v Version) HasStop() bool { return v.AtLeast(3, 5) }

// HasAlterOffsets reports whether the worker has PATCH offsets (3.6).
func (v Version) HasAlterOffsets() bool { return v.AtLeast(3, 6) }

// ConfigDigest is "sha256:" over the connector's config, key=value lines
// sorted by key: the same config gives the same digest whatever order
// Connect lists it in.
func ConfigDigest(cfg map[string]string) string {
	keys := make([]string, 0, len(cfg))
	for k := range cfg {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%d:%s=%d:%s\n", len(k), k, len(cfg[k]), cfg[k])
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
