package simtest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

func TestDiffLines(t *testing.T) {
	require.Empty(t, DiffLines("a\nb\n", "a\nb\n", 10, 3))
	require.Contains(t, DiffLines("a\nb\n", "a\nb", 10, 3), "last newline")

	var want []string
	for i := range 100 {
		want = append(want, strings.Repeat("x", i%7+1))
	}
	got := append([]string{}, want[:50]...)
	got = append(got, "inserted")
	got = append(got, want[50:]...)
	got[80] = "changed"
	d := DiffLines(strings.Join(want, "\n")+"\n", strings.Join(got, "\n")+"\n", 10, 2)
	// One line inserted is one line, the lines after it keep their match.
	require.Contains(t, d, "3 lines differ (golden 100 lines, now 101)")
	require.Contains(t, d, "+            51 | inserted\n")
	require.Contains(t, d, "-     80        | "+want[79]+"\n")
	require.Contains(t, d, "+            81 | changed\n")
	require.Contains(t, d, "      49     49 | "+want[48]+"\n")
	require.Contains(t, d, "   ...\n")
	require.NotContains(t, d, "      10     10 |")

	// Only the first maxChanged differing lines are shown.
	many := strings.Repeat("a\n", 30)
	d = DiffLines(many, strings.Repeat("b\n", 30), 4, 1)
	require.Equal(t, 4, strings.Count(d, "\n- ")+strings.Count(d, "\n+ "), d)
	require.Contains(t, d, "-      1        | a\n+             1 | b\n-      2        | a\n+             2 | b\n")
	require.Contains(t, d, "and 56 more differing lines")
}

// traceK is a trace kind only the round trip uses.
var traceK = sim.NewTraceKind("k")

func TestTraceTSVRoundTrip(t *testing.T) {
	events := []sim.TraceEvent{
		{AtMs: 0, Node: "client-1", Kind: sim.TraceStart},
		{AtMs: 5.631, Node: "client-1", Kind: sim.TraceSend, Op: "SET", Peer: "redis-1"},
		{AtMs: 1e-7, Kind: sim.TraceFault, Note: "tab\there, newline\nhere, \\t not a tab, cr\r"},
		{AtMs: 123456789.125, Node: "n", Kind: traceK, Note: "only a note"},
	}
	var b strings.Builder
	require.NoError(t, WriteTraceTSV(&b, events))
	require.Equal(t, 4, strings.Count(b.String(), "\n"))
	require.True(t, strings.HasPrefix(b.String(), "0\tclient-1\tstart\n5.631\tclient-1\tsend\tSET\tredis-1\n0.0000001\t\tfault\t\t\t"), b.String())
	back, err := ReadTraceTSV(strings.NewReader("# header\n" + b.String()))
	require.NoError(t, err)
	require.Equal(t, events, back)
}
