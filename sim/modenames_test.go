package sim_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// TestNoModeNameSwitches fails when a non-test Go file compares a value to
// a design's name (`== "redlock"`, `case "etcd":`) outside the design's own
// folders (sim/etcd/ and widgets/etcd/ for "etcd"): the rest of the program asks the design
// (sim.Traits) instead, so a new design is not an edit in every switch.
func TestNoModeNameSwitches(t *testing.T) {
	names := map[string]bool{}
	for _, m := range sim.ModeNames() {
		names[m] = true
	}
	root := ".."
	var found []string
	scanned := eachProductionGoFile(t, root, func(rel string, fset *token.FileSet, f *ast.File) {
		// A design's own folders may name it.
		for _, c := range modeNameComparisons(fset, f, names, ownDesignFile(rel, names)) {
			found = append(found, rel+":"+c)
		}
	})
	require.Greater(t, scanned, 50, "the walk reaches the repository's Go files")
	assert.Empty(t, found, "ask the design (sim.Traits) instead of comparing its name")
}

// eachProductionGoFile hands fn every non-test Go file of the repository
// at root (its path relative to root, with slashes), parsed, and says how
// many it read: what the guards against design names walk. Build output,
// test data and the conformance module (tests of its own) are left out.
func eachProductionGoFile(t *testing.T, root string, fn func(rel string, fset *token.FileSet, f *ast.File)) int {
	t.Helper()
	fset := token.NewFileSet()
	scanned := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "dist", "bin", "conformance", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		scanned++
		fn(rel, fset, f)
		return nil
	})
	require.NoError(t, err)
	return scanned
}

// modeNameComparisons lists, as "line: name", where file f compares a value
// with one of names (==, != or a case), except with own: a design's own
// file may name itself.
func modeNameComparisons(fset *token.FileSet, f *ast.File, names map[string]bool, own string) []string {
	var out []string
	check := func(e ast.Expr) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return
		}
		if v, err := strconv.Unquote(lit.Value); err == nil && names[v] && v != own {
			out = append(out, strconv.Itoa(fset.Position(lit.Pos()).Line)+": compares with "+strconv.Quote(v))
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				check(n.X)
				check(n.Y)
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				check(e)
			}
		}
		return true
	})
	return out
}

// The check finds a switch and a comparison on a design's name, and lets
// a design's own file name itself.
func TestModeNameComparisons(t *testing.T) {
	src := `package x

func f(mode string) bool {
	switch mode {
	case "etcd", "redis":
		return true
	}
	if "zookeeper" != mode {
		return false
	}
	kind := "redlock" // a name, not a comparison
	return mode == "redlock" || kind == "other"
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	require.NoError(t, err)
	names := map[string]bool{"redis": true, "redlock": true, "zookeeper": true, "etcd": true}
	assert.Equal(t, []string{
		`5: compares with "etcd"`, `5: compares with "redis"`,
		`8: compares with "zookeeper"`, `12: compares with "redlock"`,
	}, modeNameComparisons(fset, f, names, "x"))
	assert.Equal(t, []string{`5: compares with "redis"`, `8: compares with "zookeeper"`, `12: compares with "redlock"`},
		modeNameComparisons(fset, f, names, "etcd"), "etcd.go may name etcd")
}

// maxFileLines is issue 15's bound on a non-test Go file: past it a file
// holds more than one concern and is split by concern, as the designs'
// folders are.
const maxFileLines = 1000

// TestNoProductionFileOverAThousandLines fails when a non-test Go file of
// the repository runs past maxFileLines lines.
func TestNoProductionFileOverAThousandLines(t *testing.T) {
	var long []string
	scanned := eachProductionGoFile(t, "..", func(rel string, fset *token.FileSet, f *ast.File) {
		if n := fset.File(f.Pos()).LineCount(); n > maxFileLines {
			long = append(long, fmt.Sprintf("%s: %d lines", rel, n))
		}
	})
	require.Greater(t, scanned, 50, "the walk reaches the repository's Go files")
	assert.Empty(t, long, "split the file by concern")
}
