package simtest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lockscope/lockscope/sim"
)

// Golden compares got with the golden file at path, or writes got there
// when update is set. A difference fails the test with the first lines
// that differ (DiffLines), not the two whole files.
func Golden(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no golden file (see golden_test.go for how to make one): %v", err)
	}
	if d := DiffLines(string(want), got, 10, 3); d != "" {
		t.Fatalf("%s differs from this run (- golden, + now; see golden_test.go):\n%s", path, d)
	}
}

// diffOp is one line of an edit script: kept (both numbers set), deleted
// from want (got is 0) or inserted from got (want is 0). Numbers are
// 1-based line numbers.
type diffOp struct {
	want, got int
	text      string
}

// DiffLines is "" when want and got are the same text, else the first
// maxChanged lines that differ, each with its line numbers in want and
// got and context unchanged lines around it, and how many more differ.
// Lines are matched by a longest common subsequence, so one line inserted
// shows as one line (when the differing middle of two big files is too
// large for that, it is all changed), and in a run of changed lines each
// golden line is shown right above the line now in its place.
func DiffLines(want, got string, maxChanged, context int) string {
	if want == got {
		return ""
	}
	a, b := splitLines(want), splitLines(got)
	ops := interleave(editScript(a, b))
	changed := 0
	for _, op := range ops {
		if op.want == 0 || op.got == 0 {
			changed++
		}
	}
	if changed == 0 {
		return "the lines are the same; the files differ in their last newline\n"
	}
	// Show the first maxChanged changes and context lines around each.
	show := make([]bool, len(ops))
	seen := 0
	for k, op := range ops {
		if op.want != 0 && op.got != 0 {
			continue
		}
		if seen++; seen > maxChanged {
			break
		}
		for i := max(0, k-context); i <= min(len(ops)-1, k+context); i++ {
			show[i] = true
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d lines differ (golden %d lines, now %d):\n", changed, len(a), len(b))
	num := func(n int) string {
		if n == 0 {
			return ""
		}
		return strconv.Itoa(n)
	}
	last, printed := -1, 0
	for k, op := range ops {
		if !show[k] || (printed == maxChanged && (op.want == 0 || op.got == 0)) {
			continue
		}
		if last >= 0 && k > last+1 {
			sb.WriteString("   ...\n")
		}
		last = k
		sign := " "
		switch {
		case op.got == 0:
			sign = "-"
		case op.want == 0:
			sign = "+"
		}
		if sign != " " {
			printed++
		}
		fmt.Fprintf(&sb, "%s %6s %6s | %s\n", sign, num(op.want), num(op.got), op.text)
	}
	if changed > printed {
		fmt.Fprintf(&sb, "   ... and %d more differing lines\n", changed-printed)
	}
	return sb.String()
}

// splitLines is s's lines without their newlines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// maxLCSCells bounds the table of the longest common subsequence (4 bytes
// a cell).
const maxLCSCells = 4 << 20

// editScript turns a into b: the common first and last lines kept, the
// middle by a longest common subsequence when it is small enough, else
// all deleted and inserted.
func editScript(a, b []string) []diffOp {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	var ops []diffOp
	for i := 0; i < p; i++ {
		ops = append(ops, diffOp{i + 1, i + 1, a[i]})
	}
	ma, mb := a[p:len(a)-s], b[p:len(b)-s]
	n, m := len(ma), len(mb)
	del := func(i int) { ops = append(ops, diffOp{p + i + 1, 0, ma[i]}) }
	ins := func(j int) { ops = append(ops, diffOp{0, p + j + 1, mb[j]}) }
	if (n+1)*(m+1) <= maxLCSCells {
		// l[i*(m+1)+j] is the length of the longest common subsequence of ma[i:] and mb[j:].
		l := make([]int32, (n+1)*(m+1))
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					l[i*(m+1)+j] = l[(i+1)*(m+1)+j+1] + 1
				} else {
					l[i*(m+1)+j] = max(l[(i+1)*(m+1)+j], l[i*(m+1)+j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n && j < m {
			switch {
			case ma[i] == mb[j]:
				ops = append(ops, diffOp{p + i + 1, p + j + 1, ma[i]})
				i, j = i+1, j+1
			case l[(i+1)*(m+1)+j] >= l[i*(m+1)+j+1]:
				del(i)
				i++
			default:
				ins(j)
				j++
			}
		}
		for ; i < n; i++ {
			del(i)
		}
		for ; j < m; j++ {
			ins(j)
		}
	} else {
		for i := range n {
			del(i)
		}
		for j := range m {
			ins(j)
		}
	}
	for k := s; k > 0; k-- {
		ops = append(ops, diffOp{len(a) - k + 1, len(b) - k + 1, a[len(a)-k]})
	}
	return ops
}

// interleave pairs the lines of each run of changes, the first line
// deleted with the first inserted and so on, so that a line that changed
// shows as its golden form right above its new one.
func interleave(ops []diffOp) []diffOp {
	out := make([]diffOp, 0, len(ops))
	for k := 0; k < len(ops); {
		if ops[k].want != 0 && ops[k].got != 0 {
			out = append(out, ops[k])
			k++
			continue
		}
		var dels, inss []diffOp
		for ; k < len(ops) && (ops[k].want == 0 || ops[k].got == 0); k++ {
			if ops[k].got == 0 {
				dels = append(dels, ops[k])
			} else {
				inss = append(inss, ops[k])
			}
		}
		for i := 0; i < max(len(dels), len(inss)); i++ {
			if i < len(dels) {
				out = append(out, dels[i])
			}
			if i < len(inss) {
				out = append(out, inss[i])
			}
		}
	}
	return out
}

// traceEscaper and traceUnescaper keep a field of a trace line on its
// line and out of its neighbours' way.
var (
	traceEscaper   = strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)
	traceUnescaper = strings.NewReplacer(`\\`, `\`, `\t`, "\t", `\n`, "\n", `\r`, "\r")
)

// WriteTraceTSV writes one event a line, its fields separated by tabs:
// t (ms, the shortest form that reads back the same number, as the JSON
// lines and CSV have it), node, kind, op, peer, note. Empty fields at the
// end of a line are left out; a backslash, tab, newline or carriage return
// in a field is written \\, \t, \n, \r.
func WriteTraceTSV(w io.Writer, events []sim.TraceEvent) error {
	bw := bufio.NewWriter(w)
	for i := range events {
		e := &events[i]
		fields := []string{strconv.FormatFloat(e.AtMs, 'f', -1, 64), e.Node, e.Kind.String(), e.Op, e.Peer, e.Note}
		for len(fields) > 1 && fields[len(fields)-1] == "" {
			fields = fields[:len(fields)-1]
		}
		for k, f := range fields {
			if k > 0 {
				bw.WriteByte('\t')
			}
			bw.WriteString(traceEscaper.Replace(f))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// ReadTraceTSV reads what WriteTraceTSV wrote back into events (without
// At and NoteWords, which the trace files do not keep), skipping empty
// lines and lines that start with '#'.
func ReadTraceTSV(r io.Reader) ([]sim.TraceEvent, error) {
	var events []sim.TraceEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) > 6 {
			return nil, fmt.Errorf("line %d: %d fields, want at most 6", n, len(fields))
		}
		for k := range fields {
			fields[k] = traceUnescaper.Replace(fields[k])
		}
		fields = append(fields, make([]string, 6-len(fields))...)
		at, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		kind, ok := sim.ParseTraceKind(fields[2])
		if !ok {
			return nil, fmt.Errorf("line %d: %q is no trace kind", n, fields[2])
		}
		events = append(events, sim.TraceEvent{AtMs: at, Node: fields[1], Kind: kind, Op: fields[3], Peer: fields[4], Note: fields[5]})
	}
	return events, sc.Err()
}
