package sim_test

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// envelopeFields are the scalar fields of a sim.Msg whose meaning a design
// gives them (a lease in Token, a flag in N, a reason in Value, a
// position in Deadline); Op, Key, Seq (a request id) and Body are read
// where they are used.
var envelopeFields = []string{"Value", "TTL", "Token", "N", "Deadline"}

// TestDesignsReadTheEnvelopeOnlyInMessagesGo type-checks every design
// package under sim (a package with a messages.go) and the core itself
// (whose storage requests and answers are typed the same way), and fails
// where a file other than its messages.go reads or writes one of
// envelopeFields of a sim.Msg: a package's messages are typed forms whose
// codecs, in messages.go, are the only code that knows which field carries
// what (ARCHITECTURE.md, "A message is one Msg value").
func TestDesignsReadTheEnvelopeOnlyInMessagesGo(t *testing.T) {
	pkgs := goList(t, "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}}", "./...")
	imp := exportImporter(t)
	var found []string
	designs, core := 0, false
	for _, line := range pkgs {
		f := strings.Split(line, "\t")
		require.Len(t, f, 3, line)
		names := strings.Fields(f[2])
		switch {
		case f[0] == "github.com/lockscope/lockscope/sim":
			core = true
		case strings.HasPrefix(f[0], "github.com/lockscope/lockscope/sim/") && slices.Contains(names, "messages.go"):
			designs++
		default:
			continue
		}
		var files []string
		for _, name := range names {
			files = append(files, filepath.Join(f[1], name))
		}
		found = append(found, envelopeUses(t, imp, f[0], files)...)
	}
	require.GreaterOrEqual(t, designs, 4, "go list finds the designs")
	require.True(t, core, "go list finds the core")
	assert.Empty(t, found, "read or write it through the design's typed message in its messages.go")
}

// The check finds a field read, a field set and a literal's field outside
// messages.go, and passes the same in messages.go and the fields every
// design reads where it uses them.
func TestEnvelopeUses(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
		return path
	}
	msgs := write("messages.go", `package x

import "github.com/lockscope/lockscope/sim"

func leaseOf(m *sim.Msg) int64 { return m.Token }

var opGrant, opOK = sim.NewOp("Grant"), sim.NewOp("OK")

func grant(lease int64) sim.Msg { return sim.Msg{Op: opGrant, Token: lease} }
`)
	server := write("server.go", `package x

import "github.com/lockscope/lockscope/sim"

func serve(m *sim.Msg) sim.Msg {
	if m.N == 1 && m.Seq > 0 && m.Key != "" {
		return sim.Msg{Op: opOK, Seq: m.Seq, Value: "yes"}
	}
	r := grant(leaseOf(m))
	r.Deadline = 1
	return r
}
`)
	got := envelopeUses(t, exportImporter(t), "x", []string{msgs, server})
	folder := filepath.Base(dir) + string(filepath.Separator)
	assert.Equal(t, []string{folder + "server.go:6: N", folder + "server.go:7: Value", folder + "server.go:10: Deadline"}, got)
}

// envelopeUses type-checks the files of one package and lists, as
// "file:line: field", each use of one of envelopeFields of a sim.Msg (a
// selector or a composite literal's key) outside messages.go.
func envelopeUses(t *testing.T, imp types.Importer, path string, files []string) []string {
	t.Helper()
	fset, parsed, info := typeCheck(t, imp, path, files)
	var out []string
	note := func(pos token.Pos, field string) {
		p := fset.Position(pos)
		file := filepath.Join(filepath.Base(filepath.Dir(p.Filename)), filepath.Base(p.Filename))
		out = append(out, file+":"+strconv.Itoa(p.Line)+": "+field)
	}
	for _, f := range parsed {
		if filepath.Base(fset.Position(f.Pos()).Filename) == "messages.go" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if slices.Contains(envelopeFields, n.Sel.Name) && isMsg(info.Types[n.X].Type) {
					note(n.Sel.Pos(), n.Sel.Name)
				}
			case *ast.CompositeLit:
				if !isMsg(info.Types[n].Type) {
					return true
				}
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok && slices.Contains(envelopeFields, id.Name) {
							note(id.Pos(), id.Name)
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// isMsg reports whether t is sim.Msg or a pointer to one.
func isMsg(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "github.com/lockscope/lockscope/sim" && n.Obj().Name() == "Msg"
}

// typeCheck parses and type-checks the files of package path, with the
// type of every expression.
func typeCheck(t *testing.T, imp types.Importer, path string, files []string) (*token.FileSet, []*ast.File, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		parsed = append(parsed, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	_, err := (&types.Config{Importer: imp}).Check(path, fset, parsed, info)
	require.NoError(t, err, path)
	return fset, parsed, info
}

// exportFiles is the export data file of each package go list -export
// built, listed once for the tests that type-check packages.
var exportFiles map[string]string

// exportImporter imports a package from the export data the go command
// builds for it (go list -export), so the check type-checks only the files
// it looks at.
func exportImporter(t *testing.T) types.Importer {
	t.Helper()
	if exportFiles == nil {
		exportFiles = map[string]string{}
		for _, line := range goList(t, "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", "./...") {
			if path, file, ok := strings.Cut(line, "\t"); ok && file != "" {
				exportFiles[path] = file
			}
		}
	}
	exports := exportFiles
	return importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, os.ErrNotExist
		}
		return os.Open(file)
	})
}

// goList runs go list in the sim folder and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if sc.Text() != "" {
			lines = append(lines, sc.Text())
		}
	}
	return lines
}
