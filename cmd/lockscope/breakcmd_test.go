package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// breakJSONOf runs `lockscope break ... --json` and decodes the result
// strictly: exactly found, runs, faults and run --json's summary.
func breakJSONOf(t *testing.T, args ...string) breakJSON {
	t.Helper()
	code, stdout, stderr := invoke(append(append([]string{"break"}, args...), "--json")...)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Empty(t, stderr)
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(stdout), &raw))
	var keys []string
	for k := range raw {
		keys = append(keys, k)
	}
	assert.ElementsMatch(t, []string{"found", "runs", "faults", "summary"}, keys)
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	var out breakJSON
	require.NoError(t, dec.Decode(&out))
	return out
}

func TestBreakFindsThePauseAndWritesARunnableScenario(t *testing.T) {
	out := filepath.Join(t.TempDir(), "broken.lockscope.json")
	res := breakJSONOf(t, "redis-happy-path", "--faults", "pause", "--max-faults=1", "--out", out)
	require.True(t, res.Found)
	require.Len(t, res.Faults, 1)
	assert.Equal(t, sim.FaultPause, res.Faults[0].Kind())
	assert.False(t, res.Summary.Safe)
	assert.Positive(t, res.Summary.StaleWritesAccepted)

	// The file is the scenario with the found faults and the story, and
	// `lockscope run` reaches the same verdict.
	sum := runJSON(t, out)
	assert.Equal(t, res.Summary.StaleWritesAccepted, sum.StaleWritesAccepted)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	sc, err := sim.ParseScenario(data)
	require.NoError(t, err)
	assert.Equal(t, res.Faults, sc.Faults)
	require.NotEmpty(t, sc.Captions)
	for _, c := range sc.Captions {
		assert.NotEmpty(t, c.Text)
		assert.NotEmpty(t, c.Zh)
	}
	assert.Contains(t, sc.Name, "broken")
}

func TestBreakNotFoundSaysWhatWasSearched(t *testing.T) {
	res := breakJSONOf(t, "etcd-fenced-txn", "--runs", "200", "--seed", "3")
	assert.False(t, res.Found)
	assert.Equal(t, 200, res.Runs)
	assert.Empty(t, res.Faults)
	assert.NotNil(t, res.Faults, "faults is a list, empty")

	code, stdout, stderr := invoke("break", "etcd-fenced-txn", "--runs", "200", "--max-pause", "3s", "--faults", "pause,crash")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "NOT FOUND")
	assert.Contains(t, stdout, "200 schedules of up to 2 faults (pauses ≤ 3 s, crashes of up to 3 s): no stale write accepted.")
	assert.NotContains(t, strings.ToLower(stdout), "safe")

	code, stdout, _ = invoke("break", "etcd-fenced-txn", "--runs", "200", "--lang", "zh")
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, "没有找到")
}

// client-go times the Lease on the monotonic clock: jumps of the wall
// clock break nothing, steps of the monotonic clock (--monotonic, which
// also lets them strike the candidates) give a second leader, as in
// kubernetes/kubernetes#125761.
func TestBreakKubernetesNeedsTheMonotonicClock(t *testing.T) {
	wall := breakJSONOf(t, "k8s-release-on-cancel", "--faults", "clockJump", "--runs", "300")
	assert.False(t, wall.Found)
	mono := breakJSONOf(t, "k8s-release-on-cancel", "--faults", "clockJump", "--monotonic")
	require.True(t, mono.Found)
	require.Len(t, mono.Faults, 1)
	f := mono.Faults[0]
	assert.True(t, f.Monotonic)
	assert.True(t, strings.HasPrefix(f.ClockJump, "client-"), "a candidate's clock: %+v", f)
	assert.Positive(t, mono.Summary.Violations)

	code, stdout, stderr := invoke("break", "k8s-release-on-cancel", "--faults", "clockJump", "--monotonic")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "clock and its monotonic clock jump")
}

func TestBreakReadableReport(t *testing.T) {
	code, stdout, stderr := invoke("break", "redis-happy-path", "--faults", "pause", "--max-faults", "1")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "FOUND after")
	assert.Contains(t, stdout, "Breaks when client-")
	assert.Contains(t, stdout, `"pause":"client-`)
	assert.Contains(t, stdout, "UNSAFE")
}

func TestBreakBadInputIsOneLineAndExit2(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"break"}, "break: name a preset"},
		{[]string{"break", "redis-nope"}, `no preset or file named "redis-nope"`},
		{[]string{"break", "redis-happy-path", "--faults", "meteor"}, `--faults: unknown kind "meteor"`},
		{[]string{"break", "redis-happy-path", "--faults", "failover"}, "faults: redis mode has no failover here"},
		{[]string{"break", "redis-happy-path", "--max-faults", "0"}, "--max-faults: want a whole number from 1 to 10"},
		{[]string{"break", "redis-happy-path", "--max-pause", "soon"}, "--max-pause: want a duration"},
		{[]string{"break", "redis-happy-path", "--max-jump", "0s"}, "--max-jump: want a duration"},
		{[]string{"break", "redis-happy-path", "--runs", "x"}, "--runs: want a whole number"},
		{[]string{"break", "redis-happy-path", "--seed", "x"}, `--seed: want an integer, got "x"`},
		{[]string{"break", "redis-happy-path", "--set", "ttl=1s"}, `break: unknown flag "--set"`},
		{[]string{"break", "redis-happy-path", "--json=1"}, "--json: takes no value"},
		{[]string{"break", "redis-happy-path", "--monotonic=yes"}, "--monotonic: takes no value"},
		{[]string{"break", "redis-happy-path", "redis-gc-pause"}, "one scenario at a time"},
		{[]string{"break", "redis-happy-path", "--out"}, "--out: needs a value"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := invoke(tc.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, stdout)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			assert.Contains(t, stderr, tc.want)
		})
	}
}

func TestBreakHelp(t *testing.T) {
	code, stdout, _ := invoke("break", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "--max-partition D")
	_, stdout, _ = invoke("help")
	assert.Contains(t, stdout, "lockscope break PRESET|FILE")
}

// The same seed gives the same answer, byte for byte; Redlock with clock
// jumps allowed is broken by jumps alone.
func TestBreakIsDeterministicForASeed(t *testing.T) {
	args := []string{"break", "redlock-happy-path", "--faults", "clockJump", "--seed", "3", "--json"}
	code, first, stderr := invoke(args...)
	require.Equal(t, 0, code, stderr)
	_, again, _ := invoke(args...)
	assert.Equal(t, first, again)
	res := breakJSONOf(t, "redlock-happy-path", "--faults", "clockJump", "--seed", "3")
	require.True(t, res.Found)
	for _, f := range res.Faults {
		assert.Equal(t, sim.FaultClockJump, f.Kind())
	}
	assert.Positive(t, res.Summary.StaleWritesAccepted)
}
