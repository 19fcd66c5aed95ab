// The Go reference for bench/run: what a backend team would write with Go's standard library only
// to do Passgate's MD5 login path. Per request it checks a Bearer key (SHA-256, constant time),
// validates the JSON body, keys a replay cache by HMAC-SHA256 with single flight, builds and
// MD5-signs the CMCC loginTokenValidate request (Beijing 17-digit timestamp, random msgid), POSTs it
// over a keep-alive client, parses the reply and checks inresponseto, and writes one access-log
// line and one audit line. It is a benchmark reference, not part of the product or of CI.
//
// Usage: goref PORT SANDBOX_URL CONFIG_DIR, where CONFIG_DIR holds api-key-sha256, md5-app-id,
// md5-secret and receives audit.jsonl; `goref proxy PORT SANDBOX_URL` is the bare proxy (proxy.go).
package main

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

type config struct {
	apiKeyHash []byte
	appID      string
	secret     string
	sandbox    string
	replayKey  []byte
}

type outcome struct {
	status int
	body   []byte
}

// flight is one exchange in progress; duplicates wait on done.
type flight struct {
	done chan struct{}
	out  outcome
}

type replayCache struct {
	mu       sync.Mutex
	entries  map[string]cached
	inFlight map[string]*flight
}

type cached struct {
	out     outcome
	expires time.Time
}

type server struct {
	cfg    config
	client *http.Client
	cache  replayCache
	audit  *auditLog
	access *log.Logger
}

type auditLog struct {
	mu     sync.Mutex
	writer *bufio.Writer
}

func (a *auditLog) write(line []byte) {
	a.mu.Lock()
	a.writer.Write(line)
	a.writer.WriteByte('\n')
	a.mu.Unlock()
}

func (a *auditLog) flushEvery(interval time.Duration) {
	for range time.Tick(interval) {
		a.mu.Lock()
		a.writer.Flush()
		a.mu.Unlock()
	}
}

func readFile(dir, name string) string {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		log.Fatalf("goref: %v", err)
	}
	return strings.TrimSpace(string(data))
}

func main() {
	if len(os.Args) == 4 && os.Args[1] == "proxy" {
		runProxy(os.Args[2], os.Args[3])
		return
	}
	if len(os.Args) != 4 {
		log.Fatalf("usage: goref PORT SANDBOX_URL CONFIG_DIR, or goref proxy PORT SANDBOX_URL")
	}
	dir := os.Args[3]
	keyHash, err := hex.DecodeString(readFile(dir, "api-key-sha256"))
	if err != nil {
		log.Fatalf("goref: api-key-sha256: %v", err)
	}
	replayKey := make([]byte, 32)
	rand.Read(replayKey)
	file, err := os.OpenFile(filepath.Join(dir, "audit.jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		log.Fatalf("goref: audit: %v", err)
	}
	audit := &auditLog{writer: bufio.NewWriterSize(file, 64<<10)}
	go audit.flushEvery(time.Second)
	s := &server{
		cfg: config{apiKeyHash: keyHash, appID: readFile(dir, "md5-app-id"), secret: readFile(dir, "md5-secret"),
			sandbox: strings.TrimRight(os.Args[2], "/"), replayKey: replayKey},
		client: &http.Client{
			Timeout:   3 * time.Second,
			Transport: &http.Transport{MaxIdleConns: 4096, MaxIdleConnsPerHost: 4096, IdleConnTimeout: 90 * time.Second},
		},
		cache:  replayCache{entries: map[string]cached{}, inFlight: map[string]*flight{}},
		audit:  audit,
		access: log.New(os.Stdout, "", 0),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"status":"ok"}`)) })
	mux.HandleFunc("/v1/phone-number", s.phoneNumber)
	log.Fatal(http.ListenAndServe("127.0.0.1:"+os.Args[1], mux))
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// beijingTimestamp is yyyyMMddHHmmssSSS in UTC+8, whatever the process time zone.
func beijingTimestamp(now time.Time) string {
	t := now.UTC().Add(8 * time.Hour)
	return t.Format("20060102150405") + fmt.Sprintf("%03d", t.Nanosecond()/1e6)
}

func writeJSON(w http.ResponseWriter, requestID string, out outcome) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Request-Id", requestID)
	w.WriteHeader(out.status)
	w.Write(out.body)
}

func errorBody(code, message, requestID string) []byte {
	body, _ := json.Marshal(map[string]any{"error": map[string]any{"code": code, "message": message, "requestId": requestID}})
	return body
}

func (s *server) phoneNumber(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	requestID := randomHex(16)
	out := s.handle(r, requestID)
	writeJSON(w, requestID, out)
	line, _ := json.Marshal(map[string]any{
		"ts": start.UTC().Format(time.RFC3339Nano), "level": "info", "msg": "request", "requestId": requestID,
		"method": r.Method, "path": r.URL.Path, "status": out.status, "durationMs": float64(time.Since(start).Microseconds()) / 1000,
	})
	s.access.Println(string(line))
}

func (s *server) handle(r *http.Request, requestID string) outcome {
	if r.Method != http.MethodPost {
		return outcome{405, errorBody("method_not_allowed", "use POST", requestID)}
	}
	auth := r.Header.Get("Authorization")
	if !strings.HasPrefix(auth, "Bearer ") {
		return outcome{401, errorBody("unauthenticated", "missing API key", requestID)}
	}
	sum := sha256.Sum256([]byte(auth[len("Bearer "):]))
	if subtle.ConstantTimeCompare(sum[:], s.cfg.apiKeyHash) != 1 {
		return outcome{401, errorBody("unauthenticated", "unknown API key", requestID)}
	}
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		return outcome{415, errorBody("unsupported_media_type", "send application/json", requestID)}
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, 16385))
	if err != nil || len(raw) > 16384 {
		return outcome{413, errorBody("payload_too_large", "body too large", requestID)}
	}
	var input struct {
		AppID string `json:"appId"`
		Token string `json:"token"`
	}
	if err := json.Unmarshal(raw, &input); err != nil {
		return outcome{400, errorBody("invalid_request", "body: not a JSON object", requestID)}
	}
	if input.AppID == "" || len(input.AppID) > 64 {
		return outcome{400, errorBody("invalid_request", "appId: missing or too long", requestID)}
	}
	if input.Token == "" || len(input.Token) > 4096 {
		return outcome{400, errorBody("invalid_request", "token: missing or too long", requestID)}
	}
	if input.AppID != s.cfg.appID {
		return outcome{404, errorBody("app_unknown", "appId not configured", requestID)}
	}
	mac := hmac.New(sha256.New, s.cfg.replayKey)
	mac.Write([]byte("bench\x00" + input.AppID + "\x00phone_number\x00" + input.Token))
	key := hex.EncodeToString(mac.Sum(nil))
	return s.exchange(key, func() outcome { return s.callCarrier(input.AppID, input.Token, requestID) })
}

// exchange answers from the replay cache, joins a call in flight, or makes the call and keeps its outcome.
func (s *server) exchange(key string, call func() outcome) outcome {
	c := &s.cache
	c.mu.Lock()
	if entry, ok := c.entries[key]; ok && time.Now().Before(entry.expires) {
		c.mu.Unlock()
		return entry.out
	}
	if f, ok := c.inFlight[key]; ok {
		c.mu.Unlock()
		<-f.done
		return f.out
	}
	f := &flight{done: make(chan struct{})}
	c.inFlight[key] = f
	c.mu.Unlock()
	f.out = call()
	c.mu.Lock()
	delete(c.inFlight, key)
	if f.out.status == 200 || f.out.status == 422 {
		c.entries[key] = cached{out: f.out, expires: time.Now().Add(5 * time.Minute)}
	}
	c.mu.Unlock()
	close(f.done)
	return f.out
}

type loginRequest struct {
	Version             string `json:"version"`
	Msgid               string `json:"msgid"`
	Systemtime          string `json:"systemtime"`
	Strictcheck         string `json:"strictcheck"`
	Appid               string `json:"appid"`
	Expandparams        string `json:"expandparams"`
	Token               string `json:"token"`
	Sign                string `json:"sign"`
	Encryptionalgorithm string `json:"encryptionalgorithm"`
}

func (s *server) callCarrier(appID, token, requestID string) outcome {
	msgid := randomHex(16)
	systemtime := beijingTimestamp(time.Now())
	sum := md5.Sum([]byte(appID + "2.0" + msgid + systemtime + "0" + token + s.cfg.secret))
	body, _ := json.Marshal(loginRequest{"2.0", msgid, systemtime, "0", appID, "", token, strings.ToUpper(hex.EncodeToString(sum[:])), ""})
	start := time.Now()
	response, err := s.client.Post(s.cfg.sandbox+"/unisdk/rsapi/loginTokenValidate", "application/json;charset=UTF-8", bytes.NewReader(body))
	if err != nil {
		return outcome{503, errorBody("carrier_unavailable", "carrier unreachable", requestID)}
	}
	replyBytes, err := io.ReadAll(response.Body)
	response.Body.Close()
	if err != nil {
		return outcome{504, errorBody("carrier_timeout", "no complete answer", requestID)}
	}
	var reply struct {
		Inresponseto string `json:"inresponseto"`
		ResultCode   string `json:"resultCode"`
		Msisdn       string `json:"msisdn"`
		TaskID       string `json:"taskId"`
	}
	if err := json.Unmarshal(replyBytes, &reply); err != nil || reply.ResultCode == "" {
		return outcome{502, errorBody("carrier_bad_response", "not a carrier answer", requestID)}
	}
	if reply.Inresponseto != "" && reply.Inresponseto != msgid {
		return outcome{502, errorBody("carrier_bad_response", "reply for another msgid", requestID)}
	}
	auditLine, _ := json.Marshal(map[string]any{
		"time": time.Now().UTC().Format(time.RFC3339Nano), "requestId": requestID, "client": "bench", "appId": appID,
		"provider": "cmcc", "operation": "phone_number", "msgid": msgid, "carrierTaskId": reply.TaskID,
		"rawCode": reply.ResultCode, "billable": reply.ResultCode == "103000", "latencyMs": time.Since(start).Milliseconds(),
	})
	s.audit.write(auditLine)
	if reply.ResultCode != "103000" {
		return outcome{422, errorBody("token_invalid", "carrier refused: "+reply.ResultCode, requestID)}
	}
	masked := reply.Msisdn
	if len(masked) == 11 {
		masked = masked[:3] + "****" + masked[7:]
	}
	answer, _ := json.Marshal(map[string]any{
		"requestId": requestID, "appId": appID, "provider": "cmcc", "phoneNumber": reply.Msisdn,
		"maskedPhoneNumber": masked, "carrierTaskId": reply.TaskID, "replayed": false,
	})
	return outcome{200, answer}
}
