package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/hookctl/hookctl/internal/natsurl"
)

// The deploy/ examples must keep working as the CLI changes: these tests
// parse them and hold them against the real command.

const deployDir = "../../deploy"

// serveFlags are the flags `hookctl serve --help` lists.
func serveFlags(t *testing.T) map[string]bool {
	t.Helper()
	var out bytes.Buffer
	if code := run([]string{"serve", "--help"}, strings.NewReader(""), &out, io.Discard); code != 0 {
		t.Fatalf("serve --help: exit %d", code)
	}
	flags := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([a-z][a-z-]*)`).FindAllStringSubmatch(out.String(), -1) {
		flags[m[1]] = true
	}
	if !flags["nats"] || !flags["listen"] || !flags["config"] {
		t.Fatalf("serve --help lists %v", flags)
	}
	return flags
}

// checkServeArgs checks the arguments of a `hookctl serve` command line
// (without the program name): every flag is one serve --help lists, and
// the values the examples depend on parse. It returns the flags' values.
func checkServeArgs(t *testing.T, where string, args []string, flags map[string]bool) map[string]string {
	t.Helper()
	if len(args) == 0 || args[0] != "serve" {
		t.Fatalf("%s: %q is not hookctl serve", where, args)
	}
	vals := map[string]string{}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			t.Fatalf("%s: argument %q is not a flag", where, a)
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !flags[name] {
			t.Errorf("%s: hookctl serve has no flag --%s", where, name)
			continue
		}
		if !hasVal && !slices.Contains([]string{"allow-remote", "allow-untrusted"}, name) && i+1 < len(args) {
			i++
			val = args[i]
		}
		vals[name] = val
	}
	if v, ok := vals["nats"]; ok {
		if _, err := natsurl.Parse(v); err != nil {
			t.Errorf("%s: --nats %v", where, err)
		}
	}
	if _, port, err := net.SplitHostPort(vals["listen"]); err != nil || port != "8765" {
		t.Errorf("%s: --listen %q: want port 8765 (%v)", where, vals["listen"], err)
	}
	if _, ok := vals["allow-remote"]; !ok {
		t.Errorf("%s: listening on every interface needs --allow-remote", where)
	}
	// The values parse as serve's flags do.
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	root := newRoot(a)
	serve, _, err := root.Find([]string{"serve"})
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.ParseFlags(args[1:]); err != nil {
		t.Errorf("%s: %v", where, err)
	}
	return vals
}

func readYAML(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var docs []map[string]any
	dec := yaml.NewDecoder(f)
	for {
		var doc map[string]any
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if doc != nil {
			docs = append(docs, doc)
		}
	}
	return docs
}

// dig follows keys (strings for maps, ints for lists) into a decoded
// YAML document.
func dig(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: not a map at %q", path, k)
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("%v: no item %d", path, k)
			}
			v = l[k]
		}
	}
	return v
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// TestDeployCompose: deploy/compose.yaml parses; its hookctl replicas run
// `hookctl serve` with flags that exist, on NATS and a port that nginx's
// upstreams name; the files it mounts and builds from exist; and the
// Dockerfile's default command is a serve that exists too.
func TestDeployCompose(t *testing.T) {
	flags := serveFlags(t)
	docs := readYAML(t, filepath.Join(deployDir, "compose.yaml"))
	if len(docs) != 1 {
		t.Fatalf("%d documents", len(docs))
	}
	services := dig(t, docs[0], "services").(map[string]any)
	if _, ok := services["nats"]; !ok {
		t.Fatal("no nats service")
	}
	if cmd := strings.Join(strs(dig(t, services["nats"], "command")), " "); !strings.Contains(cmd, "--jetstream") {
		t.Errorf("nats runs without JetStream: %s", cmd)
	}
	var replicas []string
	for name, svc := range services {
		if !strings.HasPrefix(name, "hookctl") {
			continue
		}
		replicas = append(replicas, name)
		vals := checkServeArgs(t, "compose "+name, strs(dig(t, svc, "command")), flags)
		if !strings.Contains(vals["nats"], "://nats:4222") {
			t.Errorf("%s: --nats %q is not the nats service", name, vals["nats"])
		}
		for _, v := range strs(dig(t, svc, "volumes")) {
			src, dst, _ := strings.Cut(v, ":")
			if _, err := os.Stat(filepath.Join(deployDir, src)); err != nil {
				t.Errorf("%s mounts %s: %v", name, src, err)
			}
			if !strings.HasPrefix(dst, vals["config"]) {
				t.Errorf("%s mounts %s, serves %s", name, dst, vals["config"])
			}
		}
		build := dig(t, svc, "build")
		df := filepath.Join(deployDir, dig(t, build, "context").(string), dig(t, build, "dockerfile").(string))
		if _, err := os.Stat(df); err != nil {
			t.Errorf("%s builds %s: %v", name, df, err)
		}
	}
	if len(replicas) < 2 {
		t.Fatalf("replicas %v", replicas)
	}
	// nginx balances over exactly these replicas, on their port.
	conf, err := os.ReadFile(filepath.Join(deployDir, "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	var upstreams []string
	for _, m := range regexp.MustCompile(`(?m)^\s*server\s+([\w-]+):(\d+)`).FindAllStringSubmatch(string(conf), -1) {
		upstreams = append(upstreams, m[1])
		if m[2] != "8765" {
			t.Errorf("nginx upstream %s:%s", m[1], m[2])
		}
	}
	slices.Sort(replicas)
	if !slices.Equal(upstreams, replicas) {
		t.Errorf("nginx upstreams %v, compose replicas %v", upstreams, replicas)
	}
	if lb := strs(dig(t, services["lb"], "volumes")); !slices.Contains(lb, "./nginx.conf:/etc/nginx/nginx.conf:ro") {
		t.Errorf("lb volumes %v", lb)
	}

	// The Dockerfile builds the command with the Go of go.mod and runs
	// a serve that exists.
	df, err := os.ReadFile(filepath.Join(deployDir, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goVer := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	if !bytes.Contains(df, []byte("FROM golang:"+string(goVer[1]))) || !bytes.Contains(df, []byte("./cmd/hookctl")) {
		t.Errorf("the Dockerfile does not build ./cmd/hookctl with Go %s", goVer[1])
	}
	m := regexp.MustCompile(`(?m)^CMD (\[.*\])$`).FindSubmatch(df)
	var cmdArgs []string
	if m == nil || json.Unmarshal(m[1], &cmdArgs) != nil {
		t.Fatal("the Dockerfile has no CMD [...]")
	}
	checkServeArgs(t, "Dockerfile CMD", cmdArgs, flags)
}

// TestDeployKubernetes: the manifests of deploy/k8s parse; the Deployment
// runs `hookctl serve` with flags that exist, on NATS, with probes on
// /livez and /readyz and Prometheus scrape annotations on the port it
// listens on; the ConfigMap holds deploy/hooks.hcl, which loads; the
// Service reaches the container's port; kustomization lists files that
// exist.
func TestDeployKubernetes(t *testing.T) {
	flags := serveFlags(t)
	dir := filepath.Join(deployDir, "k8s")
	kinds := map[string]map[string]any{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	for _, f := range files {
		for _, doc := range readYAML(t, f) {
			if k, ok := doc["kind"].(string); ok {
				kinds[k] = doc
			}
		}
	}
	for _, k := range []string{"Deployment", "Service", "ConfigMap", "Kustomization"} {
		if kinds[k] == nil {
			t.Fatalf("no %s in %s", k, dir)
		}
	}
	dep := kinds["Deployment"]
	if n, _ := dig(t, dep, "spec", "replicas").(int); n < 2 {
		t.Errorf("%d replicas", n)
	}
	pod := dig(t, dep, "spec", "template")
	c := dig(t, pod, "spec", "containers", 0)
	vals := checkServeArgs(t, "Deployment", strs(dig(t, c, "args")), flags)
	if vals["nats"] == "" {
		t.Error("the Deployment does not run on NATS")
	}
	if dig(t, c, "ports", 0, "containerPort") != 8765 || dig(t, c, "ports", 0, "name") != "http" {
		t.Errorf("ports %v", dig(t, c, "ports"))
	}
	for probe, path := range map[string]string{"livenessProbe": "/livez", "readinessProbe": "/readyz"} {
		if dig(t, c, probe, "httpGet", "path") != path || dig(t, c, probe, "httpGet", "port") != "http" {
			t.Errorf("%s: %v", probe, dig(t, c, probe))
		}
	}
	ann := dig(t, pod, "metadata", "annotations").(map[string]any)
	if ann["prometheus.io/scrape"] != "true" || ann["prometheus.io/port"] != "8765" || ann["prometheus.io/path"] != "/metrics" {
		t.Errorf("annotations %v", ann)
	}
	mounted := false
	for _, vm := range dig(t, c, "volumeMounts").([]any) {
		if strings.HasPrefix(vals["config"], vm.(map[string]any)["mountPath"].(string)+"/") {
			mounted = true
		}
	}
	if !mounted {
		t.Errorf("--config %s is not in a mounted volume", vals["config"])
	}
	svc := kinds["Service"]
	if dig(t, svc, "spec", "ports", 0, "targetPort") != "http" {
		t.Errorf("service ports %v", dig(t, svc, "spec", "ports"))
	}
	sel := dig(t, svc, "spec", "selector").(map[string]any)
	for k, v := range sel {
		if dig(t, pod, "metadata", "labels", k) != v {
			t.Errorf("the service selects %s=%v, which the pods lack", k, v)
		}
	}
	// The ConfigMap is deploy/hooks.hcl, and that loads.
	hooks, err := os.ReadFile(filepath.Join(deployDir, "hooks.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if got := dig(t, kinds["ConfigMap"], "data", "hooks.hcl"); got != string(hooks) {
		t.Errorf("the ConfigMap's hooks.hcl differs from deploy/hooks.hcl")
	}
	var stderr bytes.Buffer
	if code := run([]string{"validate", "--config", filepath.Join(deployDir, "hooks.hcl")}, strings.NewReader(""), io.Discard, &stderr); code != 0 {
		t.Errorf("deploy/hooks.hcl: %s", stderr.String())
	}
	for _, r := range strs(dig(t, kinds["Kustomization"], "resources")) {
		if _, err := os.Stat(filepath.Join(dir, r)); err != nil {
			t.Errorf("kustomization: %v", err)
		}
	}
	values := readYAML(t, filepath.Join(dir, "nats-values.yaml"))
	if len(values) != 1 || dig(t, values[0], "config", "jetstream", "enabled") != true {
		t.Errorf("nats-values.yaml does not enable JetStream")
	}
}
