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
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpsAndTimerKindsAreTypedConstants type-checks every non-test file of
// the simulator's packages (sim and the designs under it) and fails on a
// string literal that is used as a sim.Op or a sim.TimerKind outside a
// const declaration: a message's op or a timer's kind is compared, switched
// on and set only through the typed constants its package declares in one
// place (a design's messages.go), never as a bare string. The empty string,
// the zero value ("no message pending"), is allowed.
func TestOpsAndTimerKindsAreTypedConstants(t *testing.T) {
	pkgs := goList(t, "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}}", "./...")
	require.Greater(t, len(pkgs), 5, "go list finds the simulator's packages")
	imp := exportImporter(t)
	var found []string
	for _, line := range pkgs {
		f := strings.Split(line, "\t")
		require.Len(t, f, 3, line)
		var files []string
		for _, name := range strings.Fields(f[2]) {
			files = append(files, filepath.Join(f[1], name))
		}
		found = append(found, bareOpLiterals(t, imp, f[0], files)...)
	}
	assert.Empty(t, found, "use the package's typed Op or TimerKind constant")
}

// The check finds a bare op in a comparison, a case, a message and a timer,
// and passes the typed constants' own declaration and the empty op.
func TestBareOpLiterals(t *testing.T) {
	src := `package x

import "github.com/lockscope/lockscope/sim"

const opSet sim.Op = "SET"

func f(ctx sim.Ctx, m *sim.Msg, tm sim.Timer) {
	if m.Op == "SET" || m.Op == opSet || m.Op == "" {
		return
	}
	switch tm.Kind {
	case "tick":
	}
	ctx.Send(0, sim.Msg{Op: "GET"})
	label := "SET" // a string, not an op
	_ = label
}
`
	dir := t.TempDir()
	path := filepath.Join(dir, "x.go")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	got := bareOpLiterals(t, exportImporter(t), "x", []string{path})
	assert.Equal(t, []string{"x.go:8: \"SET\"", "x.go:12: \"tick\"", "x.go:14: \"GET\""}, got)
}

// bareOpLiterals type-checks the files of one package and lists, as
// "file:line: literal", each non-empty string literal used as a sim.Op or
// sim.TimerKind outside a const declaration.
func bareOpLiterals(t *testing.T, imp types.Importer, path string, files []string) []string {
	t.Helper()
	fset, parsed, info := typeCheck(t, imp, path, files)
	var out []string
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			if d, ok := n.(*ast.GenDecl); ok && d.Tok == token.CONST {
				return false // where the typed constants are declared
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING || lit.Value == `""` {
				return true
			}
			if isOpOrTimerKind(info.Types[lit].Type) {
				pos := fset.Position(lit.Pos())
				out = append(out, filepath.Base(pos.Filename)+":"+strconv.Itoa(pos.Line)+": "+lit.Value)
			}
			return true
		})
	}
	return out
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

func isOpOrTimerKind(t types.Type) bool {
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "github.com/lockscope/lockscope/sim" {
		return false
	}
	return n.Obj().Name() == "Op" || n.Obj().Name() == "TimerKind"
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
