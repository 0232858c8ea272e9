// Command referrers-registry serves an OCI distribution registry with the referrers API (OCI 1.1)
// for the tests: go-containerregistry's registry package with referrers turned on, blobs on disk,
// manifests in memory. A manifest PUT whose body names a subject answers with the OCI-Subject
// header, as the distribution spec asks of a registry that indexes referrers, so a client knows
// it need not maintain the sha256-<hex> fallback tag.
//
// It listens on -addr (default 127.0.0.1:0: a free loopback port) and prints one line,
// "listening on HOST:PORT", on stdout once it accepts connections.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/registry"
)

// maxManifestBytes bounds the manifest bodies this wrapper reads to look for a subject.
const maxManifestBytes = 4 << 20

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	blobs := flag.String("blobs", "", "directory for blobs (default: in memory)")
	quiet := flag.Bool("quiet", false, "do not log requests")
	flag.Parse()

	opts := []registry.Option{registry.WithReferrersSupport(true)}
	if *blobs != "" {
		if err := os.MkdirAll(*blobs, 0o755); err != nil {
			log.Fatal(err)
		}
		opts = append(opts, registry.WithBlobHandler(registry.NewDiskBlobHandler(*blobs)))
	}
	if *quiet {
		opts = append(opts, registry.Logger(log.New(io.Discard, "", 0)))
	}
	listener, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening on %s\n", listener.Addr().String())
	server := &http.Server{
		ReadHeaderTimeout: 10 * time.Second,
		Handler:           withSubjectHeader(registry.New(opts...)),
	}
	log.Fatal(server.Serve(listener))
}

// withSubjectHeader answers a manifest PUT that names a subject with OCI-Subject: <digest>.
func withSubjectHeader(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPut || !strings.Contains(r.URL.Path, "/manifests/") {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxManifestBytes+1))
		if err != nil || len(body) > maxManifestBytes {
			http.Error(w, "manifest too large or unreadable", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var doc struct {
			Subject *struct {
				Digest string `json:"digest"`
			} `json:"subject"`
		}
		if json.Unmarshal(body, &doc) == nil && doc.Subject != nil && doc.Subject.Digest != "" {
			w = &subjectWriter{ResponseWriter: w, subject: doc.Subject.Digest}
		}
		next.ServeHTTP(w, r)
	})
}

type subjectWriter struct {
	http.ResponseWriter
	subject string
}

func (s *subjectWriter) WriteHeader(status int) {
	if status == http.StatusCreated {
		s.Header().Set("OCI-Subject", s.subject)
	}
	s.ResponseWriter.WriteHeader(status)
}
