package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/app"
	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/sim"
)

// invoke runs the program with args and returns its exit status and output.
func invoke(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// runJSON runs `lockscope run ... --json` and decodes the summary strictly,
// so a field the contract does not name fails the test.
func runJSON(t *testing.T, args ...string) sim.Summary {
	t.Helper()
	code, stdout, stderr := invoke(append(append([]string{"run"}, args...), "--json")...)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Empty(t, stderr)
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	var sum sim.Summary
	require.NoError(t, dec.Decode(&sum))
	require.False(t, dec.More(), "run --json prints one JSON object")
	return sum
}

func TestNoArgumentsOpensTheWindow(t *testing.T) {
	opened := 0
	defer func(f func()) { openWindow = f }(openWindow)
	openWindow = func() { opened++ }

	code, stdout, stderr := invoke()
	assert.Equal(t, 0, code)
	assert.Equal(t, 1, opened)
	assert.Empty(t, stdout)
	assert.Empty(t, stderr)
}

func TestPresetsListsEveryPresetWithItsName(t *testing.T) {
	code, stdout, stderr := invoke("presets")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	names := assets.PresetNames(sim.ModeNames())
	require.Len(t, lines, len(names))
	require.Contains(t, names, "redis-gc-pause")
	for i, name := range names {
		sc, err := app.Preset(name)
		require.NoError(t, err)
		fields := strings.Fields(lines[i])
		require.NotEmpty(t, fields)
		assert.Equal(t, name, fields[0])
		assert.Equal(t, sc.Name, strings.Join(fields[1:], " "), "caption of %s", name)
	}
}

func TestVersionMatchesFyneAppToml(t *testing.T) {
	toml, err := os.ReadFile(filepath.Join("..", "..", "FyneApp.toml"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^\s*Version\s*=\s*"([^"]+)"`).FindSubmatch(toml)
	require.NotNil(t, m, "FyneApp.toml has no Version")
	assert.Equal(t, string(m[1]), version, "the default in main.go must follow FyneApp.toml")

	for _, arg := range []string{"--version", "version"} {
		code, stdout, stderr := invoke(arg)
		assert.Equal(t, 0, code)
		assert.Equal(t, "lockscope "+version+"\n", stdout)
		assert.Empty(t, stderr)
	}
}

func TestHelpPrintsUsage(t *testing.T) {
	code, stdout, _ := invoke("help")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "lockscope run PRESET|FILE")

	code, stdout, _ = invoke("run", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "--set field=value")
}

// TestRunJSONHasExactlyTheContractFields pins the key set of DESIGN.md's
// `run --json` object.
func TestRunJSONHasExactlyTheContractFields(t *testing.T) {
	code, stdout, stderr := invoke("run", "redis-gc-pause", "--json")
	require.Equal(t, 0, code, stderr)
	var obj map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(stdout), &obj))
	var keys []string
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	assert.Equal(t, []string{
		"acquireLatencyP50Ms", "acquireLatencyP99Ms", "acquisitions", "expiredWhileHeld",
		"grants", "lostUpdates", "messages", "metrics", "mode", "name", "overlapMs", "playback", "releases", "safe", "seed",
		"staleWritesAccepted", "staleWritesRejected", "violations", "watchNotifications", "writes",
	}, keys)
	var metrics map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(obj["metrics"], &metrics))
	assert.ElementsMatch(t, []string{"run", "messagesPerAcquisition", "grantsPerSecond", "severalHoldersMs", "noHolderMs", "fairness", "clients"}, keysOf(metrics))
	var run map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(metrics["run"], &run))
	assert.ElementsMatch(t, []string{"rounds", "acquisitions", "gaveUp", "waiting", "acquireSuccessRate", "tries", "failedTries",
		"contentionRatio", "acquireLatency", "holdTime", "expiredWhileHeld", "renewals", "renewalsFailed", "renewalSuccessRate",
		"longestWaitMs"}, keysOf(run), "the run's figures have no client name")
	var clients []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(metrics["clients"], &clients))
	require.Len(t, clients, 2)
	assert.Contains(t, clients[0], "client")
	var fairness map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(metrics["fairness"], &fairness))
	assert.ElementsMatch(t, []string{"inversions", "medianWaitMs", "longestWaitMs", "starved"}, keysOf(fairness))
	var playback map[string]float64
	require.NoError(t, json.Unmarshal(obj["playback"], &playback))
	assert.Len(t, playback, 3)
	assert.GreaterOrEqual(t, playback["seconds"], 20.0)
	assert.LessOrEqual(t, playback["seconds"], 60.0)
	assert.GreaterOrEqual(t, playback["keyMessages"], 1.0)
	assert.GreaterOrEqual(t, playback["minKeyMessageSeconds"], 0.3)

	var grants []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(obj["grants"], &grants))
	require.NotEmpty(t, grants)
	for _, g := range grants {
		assert.Contains(t, g, "atMs")
		assert.Contains(t, g, "client")
		assert.Contains(t, g, "token")
		assert.NotContains(t, g, "validityMs", "only Redlock grants carry validityMs")
		assert.NotContains(t, g, "read", "only a read–write lock's read holds carry read")
	}
}

// TestRunJSONMarksReadHolds: with readers the read holds' grants say
// "read": true, and two readers together are no overlap.
func TestRunJSONMarksReadHolds(t *testing.T) {
	for preset, readers := range map[string][]string{
		"zk-read-write":    {"client-1", "client-2"},
		"etcd-read-write":  {"client-1", "client-2"},
		"redis-read-write": {"client-1", "client-2", "client-3"},
	} {
		t.Run(preset, func(t *testing.T) {
			sum := runJSON(t, preset)
			for _, g := range sum.Grants {
				assert.Equal(t, slices.Contains(readers, g.Client), g.Read, "%s at %v ms", g.Client, g.AtMs)
			}
			assert.Zero(t, sum.OverlapMs, "readers together are no overlap")
			assert.Zero(t, sum.Violations)
		})
	}
}

func TestRunPresets(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		check func(t *testing.T, s sim.Summary)
	}{
		{"gc pause corrupts the storage", []string{"redis-gc-pause"}, func(t *testing.T, s sim.Summary) {
			assert.Equal(t, "redis", s.Mode)
			assert.Equal(t, "GC pause outlives the lease", s.Name)
			assert.GreaterOrEqual(t, s.Violations, 1)
			assert.Positive(t, s.OverlapMs)
			assert.GreaterOrEqual(t, s.StaleWritesAccepted, 1)
			assert.False(t, s.Safe)
		}},
		{"fencing rejects the stale write", []string{"redis-gc-pause-fenced"}, func(t *testing.T, s sim.Summary) {
			assert.GreaterOrEqual(t, s.Violations, 1, "fencing does not stop the overlap, only its damage")
			assert.Zero(t, s.StaleWritesAccepted)
			assert.GreaterOrEqual(t, s.StaleWritesRejected, 1)
			assert.True(t, s.Safe)
			require.Len(t, s.Grants, 2)
			assert.Less(t, s.Grants[0].Token, s.Grants[1].Token, "INCR tokens rise")
		}},
		{"happy path", []string{"redis-happy-path"}, func(t *testing.T, s sim.Summary) {
			assert.Zero(t, s.Violations)
			assert.True(t, s.Safe)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, runJSON(t, tt.args...)) })
	}
}

func TestRunSetOverrides(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		check func(t *testing.T, s sim.Summary)
	}{
		{"a TTL longer than the pause keeps the lock", []string{"redis-gc-pause", "--set", "ttl=30s"}, func(t *testing.T, s sim.Summary) {
			assert.Zero(t, s.Violations)
			assert.True(t, s.Safe)
		}},
		{"fencing=true parses as a JSON bool", []string{"redis-gc-pause", "--set", "fencing=true"}, func(t *testing.T, s sim.Summary) {
			assert.Zero(t, s.StaleWritesAccepted)
			assert.GreaterOrEqual(t, s.StaleWritesRejected, 1)
			assert.True(t, s.Safe)
		}},
		{"a field inside a fault", []string{"redis-gc-pause", "--set", "faults[0].for=2s"}, func(t *testing.T, s sim.Summary) {
			assert.Zero(t, s.Violations, "a 2 s pause fits in the 10 s lease")
			assert.True(t, s.Safe)
		}},
		{"clients=4 parses as a JSON number", []string{"redis-happy-path", "--set=clients=4"}, func(t *testing.T, s sim.Summary) {
			seen := map[string]bool{}
			for _, g := range s.Grants {
				seen[g.Client] = true
			}
			assert.True(t, seen["client-4"], "grants: %+v", s.Grants)
		}},
		{"a fault added to a scenario without one", []string{"redis-happy-path", "--set", "rounds=1",
			"--set", `faults[0]={"at":"500ms","pause":"client-1","for":"15s"}`}, func(t *testing.T, s sim.Summary) {
			assert.GreaterOrEqual(t, s.Violations, 1)
			assert.False(t, s.Safe)
		}},
		{"a value that is not JSON is a string", []string{"redis-happy-path", "--set", "name=my run"}, func(t *testing.T, s sim.Summary) {
			assert.Equal(t, "my run", s.Name)
		}},
		{"later overrides win", []string{"redis-gc-pause", "--set", "ttl=30s", "--set", "ttl=10s"}, func(t *testing.T, s sim.Summary) {
			assert.False(t, s.Safe)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, runJSON(t, tt.args...)) })
	}
}

func TestRunSeed(t *testing.T) {
	s7 := runJSON(t, "redis-happy-path", "--seed", "7")
	assert.Equal(t, int64(7), s7.Seed)
	assert.Equal(t, int64(8), runJSON(t, "redis-happy-path", "--seed=8").Seed)
	assert.Equal(t, int64(9), runJSON(t, "redis-happy-path", "--set", "seed=9").Seed)

	_, a, _ := invoke("run", "redis-happy-path", "--seed", "7", "--json")
	_, b, _ := invoke("run", "redis-happy-path", "--json", "--seed", "7")
	assert.Equal(t, a, b, "same scenario and seed, same output")

	s8 := runJSON(t, "redis-happy-path", "--seed", "8")
	assert.NotEqual(t, s7.Grants, s8.Grants, "the seed drives jitter and retry delays")
}

func TestRunTraceJSONLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gc.jsonl")
	withTrace := runJSON(t, "redis-gc-pause", "--trace", path)
	assert.Equal(t, runJSON(t, "redis-gc-pause"), withTrace, "tracing does not change the run")

	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, last, writes := 0, -1.0, 0
	for sc.Scan() {
		var e map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &e), "line %d: %s", n+1, sc.Text())
		at, ok := e["t"].(float64)
		require.True(t, ok, "line %d has no time: %s", n+1, sc.Text())
		assert.GreaterOrEqual(t, at, last, "events are in time order")
		last = at
		require.NotEmpty(t, e["kind"])
		if e["kind"] == "write" {
			writes++
		}
		n++
	}
	require.NoError(t, sc.Err())
	assert.Greater(t, n, withTrace.Messages, "every message is at least one event")
	assert.Equal(t, withTrace.Writes, writes)
}

func TestRunTraceCSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gc.CSV")
	code, _, stderr := invoke("run", "redis-gc-pause", "--trace", path)
	require.Equal(t, 0, code, stderr)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Greater(t, len(rows), 1)
	assert.Equal(t, []string{"t_ms", "node", "kind", "op", "peer", "note"}, rows[0])
}

func TestRunFile(t *testing.T) {
	dir := t.TempDir()
	data, ok := assets.PresetFile("redis-gc-pause")
	require.True(t, ok)
	path := filepath.Join(dir, "mine.lockscope.json")
	require.NoError(t, os.WriteFile(path, data, 0o644))

	s := runJSON(t, path)
	assert.False(t, s.Safe)
	s = runJSON(t, path, "--set", "fencing=true")
	assert.True(t, s.Safe)
}

func TestRunTextReport(t *testing.T) {
	code, stdout, stderr := invoke("run", "redis-gc-pause")
	require.Equal(t, 0, code, stderr)
	assert.True(t, strings.HasPrefix(stdout, "UNSAFE"), stdout)
	assert.Regexp(t, `(?m)^violations\s+1\s+\(overlap \d+(\.\d+)? ms\)$`, stdout)
	assert.Regexp(t, `(?m)^stale writes accepted\s+1$`, stdout)
	assert.Regexp(t, `(?m)^\s+[\d.]+\s+client-2\s+-$`, stdout, "no token without fencing")

	code, stdout, stderr = invoke("run", "redis-gc-pause-fenced")
	require.Equal(t, 0, code, stderr)
	assert.True(t, strings.HasPrefix(stdout, "SAFE"), stdout)
	assert.Regexp(t, `(?m)^stale writes rejected\s+1$`, stdout)
	assert.Regexp(t, `(?m)^\s+[\d.]+\s+client-1\s+1$`, stdout)
	assert.Regexp(t, `(?m)^\s+[\d.]+\s+client-2\s+2$`, stdout)
}

func TestBadInputIsOneLineAndExit2(t *testing.T) {
	dir := t.TempDir()
	badFault := filepath.Join(dir, "bad.lockscope.json")
	require.NoError(t, os.WriteFile(badFault, []byte(`{"mode":"redis","faults":[{"at":"1x","pause":"client-1","for":"1s"}]}`), 0o644))
	badJSON := filepath.Join(dir, "broken.lockscope.json")
	require.NoError(t, os.WriteFile(badJSON, []byte(`{"mode":"redis",`), 0o644))

	tests := []struct {
		name string
		args []string
		want string // a part of the one line on stderr
	}{
		{"unknown preset", []string{"run", "redis-nope"}, `no preset or file named "redis-nope"`},
		{"missing file", []string{"run", filepath.Join(dir, "none.lockscope.json")}, "no such file"},
		{"bad duration", []string{"run", "redis-happy-path", "--set", "ttl=5x"}, `ttl: want a duration such as "10s", got "5x"`},
		{"unknown field", []string{"run", "redis-happy-path", "--set", "tll=5s"}, "tll: unknown field"},
		{"invalid value", []string{"run", "redis-happy-path", "--set", "clients=0"}, "clients: 0, want 1 to 200"},
		{"wrong type", []string{"run", "redis-happy-path", "--set", "fencing=yes"}, "fencing:"},
		{"set without =", []string{"run", "redis-happy-path", "--set", "ttl"}, "want field=value"},
		{"bad path", []string{"run", "redis-gc-pause", "--set", "faults[x].for=1s"}, "want a path such as"},
		{"index past the end", []string{"run", "redis-gc-pause", "--set", "faults[3].for=1s"}, "faults[3]: index out of range (length 1; 1 appends)"},
		{"path through a scalar", []string{"run", "redis-gc-pause", "--set", "ttl.x=1"}, "ttl.x: ttl is not an object"},
		{"bad seed", []string{"run", "redis-happy-path", "--seed", "abc"}, `--seed: want an integer, got "abc"`},
		{"seed without value", []string{"run", "redis-happy-path", "--seed"}, "--seed: needs a value"},
		{"unknown flag", []string{"run", "redis-happy-path", "--fast"}, `unknown flag "--fast"`},
		{"two scenarios", []string{"run", "redis-happy-path", "redis-gc-pause"}, "one scenario at a time"},
		{"no scenario", []string{"run"}, "name a preset or a .lockscope.json file"},
		{"bad file names file and field", []string{"run", badFault}, badFault + `: faults[0].at: want a duration such as "10s", got "1x"`},
		{"broken JSON", []string{"run", badJSON}, badJSON + ": scenario: not a JSON object"},
		{"trace into a missing directory", []string{"run", "redis-happy-path", "--trace", filepath.Join(dir, "no", "t.jsonl")}, "--trace: open"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"sweep without mode", []string{"sweep", "--x", "ttl=1s:2s:2"}, "sweep: --mode is required"},
		{"sweep without x", []string{"sweep", "--mode", "redis"}, "sweep: --x is required"},
		{"sweep unknown mode", []string{"sweep", "--mode", "memcached", "--x", "ttl=1s:2s:2"}, `--mode: unknown mode "memcached"`},
		{"sweep bad axis", []string{"sweep", "--mode", "redis", "--x", "ttl=1s:2s"}, "--x: ttl: want from:to:steps"},
		{"sweep unknown field", []string{"sweep", "--mode", "redis", "--x", "colour=1:2:2"}, "--x: colour: cannot sweep this field"},
		{"sweep same axis twice", []string{"sweep", "--mode", "redis", "--x", "ttl=1s:2s:2", "--y", "ttl=1s:2s:2"}, "--y: ttl is already the x axis"},
		{"sweep bad seeds", []string{"sweep", "--mode", "redis", "--x", "ttl=1s:2s:2", "--seeds", "0"}, "--seeds: want 1 to 10000"},
		{"sweep invalid cell", []string{"sweep", "--mode", "redis", "--x", "clients=1:300:2"}, "clients: 300, want 1 to 200"},
		{"unknown top-level flag", []string{"--fast"}, `unknown flag "--fast"`},
		{"presets takes no argument", []string{"presets", "redis"}, "presets: takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := invoke(tt.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, stdout)
			require.True(t, strings.HasSuffix(stderr, "\n"), "stderr: %q", stderr)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "exactly one line: %q", stderr)
			assert.True(t, strings.HasPrefix(stderr, "lockscope: "), stderr)
			assert.Contains(t, stderr, tt.want)
			assert.NotContains(t, stderr, "usage")
		})
	}
}

func TestParseSet(t *testing.T) {
	tests := []struct {
		arg   string
		path  string
		value any
	}{
		{"ttl=5s", "ttl", "5s"},
		{"fencing=true", "fencing", true},
		{"clients=4", "clients", json.Number("4")},
		{"seed=9007199254740993", "seed", json.Number("9007199254740993")},
		{"name=", "name", ""},
		{"name=a=b", "name", "a=b"},
		{`name="quoted"`, "name", "quoted"},
		{"faults[0].for=20s", "faults[0].for", "20s"},
		{"faults[0].partition[1][0]=redis-1", "faults[0].partition[1][0]", "redis-1"},
		{`faults=[]`, "faults", []any{}},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			o, err := parseSet(tt.arg)
			require.NoError(t, err)
			assert.Equal(t, tt.path, pathString(o.path))
			assert.Equal(t, tt.value, o.value)
		})
	}
	for _, bad := range []string{"ttl", "=5s", "faults[=1", "faults[-1]=1", "faults[0]x=1", "a..b=1"} {
		_, err := parseSet(bad)
		assert.Error(t, err, bad)
	}
}

func TestApplyOverridesKeepsBigNumbersAndAppends(t *testing.T) {
	seed, err := parseSet("seed=9007199254740993")
	require.NoError(t, err)
	fault, err := parseSet(`faults[0]={"at":"1s","crash":"redis-1"}`)
	require.NoError(t, err)
	out, err := applyOverrides([]byte(`{"mode":"redis","faults":[]}`), []override{seed, fault})
	require.NoError(t, err)
	sc, err := sim.ParseScenario(out)
	require.NoError(t, err)
	assert.Equal(t, int64(9007199254740993), sc.Seed)
	require.Len(t, sc.Faults, 1)
	assert.Equal(t, "redis-1", sc.Faults[0].Crash)
}

func TestSweepCSV(t *testing.T) {
	code, stdout, stderr := invoke("sweep", "--mode", "redis", "--x", "ttl=2s:8s:3", "--y", "pause=0s:8s:3", "--seeds", "2", "--csv")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 1+9)
	assert.Equal(t, "x,y,runs,unsafeRate,violationRate,recoveryMeanMs,recoveryP99Ms,acquireMeanMs,throughputPerS,waitP99Ms", lines[0])
	// ttl 2 s with an 8 s pause in 2 s of work: always unsafe; ttl 8 s with no pause: never.
	assert.True(t, strings.HasPrefix(lines[7], "2000,8000,2,1,1,"), lines[7])
	assert.True(t, strings.HasPrefix(lines[3], "8000,0,2,0,0,"), lines[3])
	// The two new columns come last: grants a second and the p99 wait,
	// the throughput falling as the pause grows (ttl 8 s: pause 0, 4, 8 s).
	tput := func(line string) float64 {
		f := strings.Split(line, ",")
		require.Len(t, f, 10, line)
		v, err := strconv.ParseFloat(f[8], 64)
		require.NoError(t, err, line)
		return v
	}
	assert.Greater(t, tput(lines[3]), tput(lines[6]))
	assert.Greater(t, tput(lines[6]), tput(lines[9]))
	assert.Contains(t, stderr, "sweep: 100%")
}

func TestSweepTable(t *testing.T) {
	code, stdout, stderr := invoke("sweep", "--mode", "redis", "--x", "ttl=2s:8s:2", "--seeds", "1", "--set", "work=1s")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "redis sweep: ttl, 1 seeds per cell")
	assert.Contains(t, stdout, "recovery mean")
	assert.Contains(t, stdout, "throughput")
	assert.Contains(t, stdout, "wait p99")
	assert.Contains(t, stdout, "8s")
}

// TestRunJSONPlaybackIsTheWindows: "playback" is what the window's own
// pacing of the run says (DESIGN.md), and every preset tells its story
// in 20 to 60 s, each key message on show for 0.3 s at least.
func TestRunJSONPlaybackIsTheWindows(t *testing.T) {
	for _, name := range assets.PresetNames(sim.ModeNames()) {
		code, stdout, stderr := invoke("run", name, "--json")
		require.Equal(t, 0, code, stderr)
		var sum sim.Summary
		require.NoError(t, json.Unmarshal([]byte(stdout), &sum))
		require.NotNil(t, sum.Playback, name)
		pb := *sum.Playback
		assert.GreaterOrEqual(t, pb.Seconds, 20.0, name)
		assert.LessOrEqual(t, pb.Seconds, 60.0, name)
		assert.GreaterOrEqual(t, pb.KeyMessages, 1, name)
		assert.GreaterOrEqual(t, pb.MinKeyMessageSeconds, 0.3, name)

		sc, err := app.Preset(name)
		require.NoError(t, err)
		rec, err := sim.Record(sc)
		require.NoError(t, err)
		win := rec.Pace(sim.StoryPace).Summary()
		assert.InDelta(t, win.Seconds, pb.Seconds, 0.0005, "%s: the window's pacing", name)
		assert.Equal(t, win.KeyMessages, pb.KeyMessages, name)
		assert.InDelta(t, win.MinKeyMessageSeconds, pb.MinKeyMessageSeconds, 0.0005, name)
	}
	code, stdout, _ := invoke("run", "redis-gc-pause")
	require.Equal(t, 0, code)
	assert.NotContains(t, stdout, "playback", "the readable report is unchanged")
}

// keysOf lists a JSON object's keys.
func keysOf(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestReportSaysWhichGrantsRead: a read–write lock's report has a lock
// column, read or write per grant; another run's has none.
func TestReportSaysWhichGrantsRead(t *testing.T) {
	code, stdout, stderr := invoke("run", "zk-read-write")
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `(?m)^  20 +client-1 +- +read$`, stdout)
	assert.Regexp(t, `(?m)^  3248 +client-3 +2 +write$`, stdout)
	code, stdout, stderr = invoke("run", "zk-happy-path")
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, stdout, " lock\n")
}
