// The Go bare proxy: Go's standard-library stack with none of the login path's work, the
// counterpart of Sources/passgate-bench-proxy. It forwards each POST body verbatim to the sandbox
// over a keep-alive client and returns the sandbox's status and body verbatim, so bench/run drives
// it with the same pre-signed bodies it sends straight to the sandbox. Next to the Swift bare proxy
// it splits each service's CPU per request into what its stack costs (one inbound plus one
// outbound exchange) and what its own work costs (the full service minus its bare proxy).
//
// Usage: goref proxy PORT SANDBOX_URL
package main

import (
	"bytes"
	"io"
	"log"
	"net/http"
	"strings"
	"time"
)

func runProxy(port, sandbox string) {
	upstream := strings.TrimRight(sandbox, "/")
	client := &http.Client{
		Timeout:   3 * time.Second,
		Transport: &http.Transport{MaxIdleConns: 4096, MaxIdleConnsPerHost: 4096, IdleConnTimeout: 90 * time.Second},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"status":"ok"}`)) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		response, err := client.Post(upstream+r.URL.Path, "application/json", bytes.NewReader(body))
		if err != nil {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		reply, err := io.ReadAll(response.Body)
		response.Body.Close()
		if err != nil {
			w.WriteHeader(http.StatusGatewayTimeout)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(response.StatusCode)
		w.Write(reply)
	})
	log.Fatal(http.ListenAndServe("127.0.0.1:"+port, mux))
}
