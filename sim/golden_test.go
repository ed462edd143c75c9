package sim_test

// Golden traces: the traces of the presets, as the code computed them
// before it was made faster (the sweeps' golden grids are sim/sweep's,
// TestSweepGolden). A speed-up must leave every byte of them alone;
// TestPresetTraceGolden compares a fresh computation with the files in
// testdata/golden, and a difference prints the first differing lines with
// their line numbers (simtest.Golden), not the whole files.
//
// They are text, one line to an event of the trace (traces/<preset>.txt:
// t_ms, node, kind, op, peer and note, separated by tabs, after three lines of header: the run's summary
// as JSON, its steps, its number of events and the sha256 of its trace as
// JSON lines). Each trace is stored whole (the 30 of issue 30: 26,124
// events, 1.1 MB).
// TestPresetTraceGoldenDecodes checks that each file's events hash to its
// sha256.
//
// Regenerate them with
//
//	go test ./sim -run TestPresetTraceGolden -update
//
// (which also removes the trace of a preset that is gone) ONLY when
// behaviour changes on purpose (a protocol fix, a new node, a new client
// behaviour), and ONLY from code WITHOUT performance changes: check out the
// commit before the optimisation (git worktree add), run -update there, and
// copy the files over. Never regenerate them from optimised code to make a
// failure go away: a failure here means the optimisation changed a result.

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"

	"github.com/lockscope/lockscope/sim/simtest"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden from the current code (see golden_test.go first)")

// compareGolden checks got against testdata/golden/name, or writes it with
// -update; a difference prints the first differing lines.
func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	simtest.Golden(t, filepath.Join("testdata", "golden", name), got, *updateGolden)
}

// traceGoldenDir holds a file per preset: presetTraceText.
var traceGoldenDir = filepath.Join("testdata", "golden", "traces")

// presetTraceText is what traces/<preset>.txt holds: the run's summary as
// JSON, its steps, its number of events and the sha256 of its trace as
// JSON lines (sim.WriteTraceJSONL, what the golden kept before the traces
// were text), a header, then the trace itself, one event a line
// (simtest.WriteTraceTSV).
func presetTraceText(t *testing.T, name string) string {
	t.Helper()
	sc, err := simtest.Load(name)
	require.NoError(t, err)
	s, err := sim.New(sc)
	require.NoError(t, err)
	s.EnableTrace()
	sum := s.Run()
	var jsonl strings.Builder
	require.NoError(t, sim.WriteTraceJSONL(&jsonl, s.Trace()))
	js, err := json.Marshal(sum)
	require.NoError(t, err)
	var b strings.Builder
	fmt.Fprintf(&b, "# summary %s\n", js)
	fmt.Fprintf(&b, "# steps=%d events=%d sha256(jsonl)=%x\n", s.Steps(), len(s.Trace()), sha256.Sum256([]byte(jsonl.String())))
	b.WriteString("# t_ms\tnode\tkind\top\tpeer\tnote\n")
	require.NoError(t, simtest.WriteTraceTSV(&b, s.Trace()))
	return b.String()
}

// TestPresetTraceGolden: every preset's summary and whole trace, so that a
// speed-up of the engine cannot change what the window shows either.
func TestPresetTraceGolden(t *testing.T) {
	names := simtest.PresetNames()
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			compareGolden(t, filepath.Join("traces", name+".txt"), presetTraceText(t, name))
		})
	}
	// No file of a preset that is gone: -update removes it.
	files, err := filepath.Glob(filepath.Join(traceGoldenDir, "*.txt"))
	require.NoError(t, err)
	for _, f := range files {
		if !slices.Contains(names, strings.TrimSuffix(filepath.Base(f), ".txt")) {
			if *updateGolden {
				require.NoError(t, os.Remove(f))
			} else {
				t.Errorf("%s is the golden of no preset (-update removes it)", f)
			}
		}
	}
}

// TestPresetTraceGoldenDecodes: the events of each golden trace file, read
// back and written as JSON lines, are the trace its sha256 names, so the
// text keeps every byte the digest did.
func TestPresetTraceGoldenDecodes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(traceGoldenDir, "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		_, rest, ok := strings.Cut(string(data), "sha256(jsonl)=")
		require.True(t, ok, "%s: no sha256(jsonl)= line", f)
		want, _, _ := strings.Cut(rest, "\n")
		events, err := simtest.ReadTraceTSV(strings.NewReader(string(data)))
		require.NoError(t, err, f)
		var jsonl strings.Builder
		require.NoError(t, sim.WriteTraceJSONL(&jsonl, events))
		require.Equal(t, want, fmt.Sprintf("%x", sha256.Sum256([]byte(jsonl.String()))),
			"%s: its events, as JSON lines, are not the trace its sha256 names (edited by hand? regenerate it, see golden_test.go)", f)
	}
}
