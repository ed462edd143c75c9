package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
)

// --lang zh writes the readable report in Chinese; the JSON summary and
// the exit status do not change with the language.
func TestRunLangZh(t *testing.T) {
	code, en, _ := invoke("run", "redis-gc-pause")
	require.Equal(t, exitOK, code)
	code, zh, stderr := invoke("run", "redis-gc-pause", "--lang", "zh")
	require.Equal(t, exitOK, code, stderr)
	assert.True(t, strings.HasPrefix(zh, "不安全：存储接受了 1 次过期写入\n"), zh)
	assert.Contains(t, zh, "GC 停顿超过了租约 (redis-gc-pause)")
	assert.Contains(t, zh, "被接受的过期写入")
	assert.Contains(t, zh, "client-2")
	assert.True(t, strings.HasPrefix(en, "UNSAFE: 1 stale write accepted by the storage\n"), en)
	assert.Equal(t, strings.Count(en, "\n"), strings.Count(zh, "\n"), "the same lines in both languages")

	_, enJSON, _ := invoke("run", "redis-gc-pause", "--json")
	_, zhJSON, _ := invoke("run", "redis-gc-pause", "--json", "--lang=zh")
	assert.Equal(t, enJSON, zhJSON)
}

// The counts line up in terminal cells, Chinese labels included.
func TestRunLangZhAligns(t *testing.T) {
	_, zh, _ := invoke("run", "redis-happy-path", "--lang", "zh")
	lines := strings.Split(zh, "\n")
	col := -1
	for _, l := range lines[3:14] {
		i := strings.Index(l, "  ")
		require.GreaterOrEqual(t, i, 0, l)
		i += len(l[i:]) - len(strings.TrimLeft(l[i:], " "))
		w := runewidth.StringWidth(l[:i])
		if col < 0 {
			col = w
		}
		assert.Equal(t, col, w, "value column of %q", l)
	}
}

func TestRunLangRejectsOtherLanguages(t *testing.T) {
	code, _, stderr := invoke("run", "redis-gc-pause", "--lang", "fr")
	assert.Equal(t, exitUsage, code)
	assert.Equal(t, "lockscope: --lang: want en or zh, got \"fr\"\n", stderr)
	code, _, stderr = invoke("run", "redis-gc-pause", "--lang")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--lang: needs a value")
}

// The English report is laid out as text/tabwriter laid it out before the
// report learnt Chinese: a row's last cell widens no column.
func TestRunReportLayout(t *testing.T) {
	_, out, _ := invoke("run", "redis-gc-pause-fenced")
	want := `SAFE: no stale write accepted; fencing rejected 1
GC pause, saved by a fencing token (redis-gc-pause-fenced); mode redis, seed 1, 30s simulated

acquisitions           2
releases               2
violations             1  (overlap 5004.542 ms)
writes                 2
stale writes accepted  0
stale writes rejected  1
lost updates           0
expired while held     1
messages               210
acquire latency p50    5.631 ms
acquire latency p99    9996.775 ms
watch notifications    0

grants
  at (ms)    client    token
  5.631      client-1  1
  10096.775  client-2  2
`
	assert.Equal(t, want, out)
}

// shot --lang zh draws the picture's words in Chinese and leaves the
// process's language as it was.
func TestShotLang(t *testing.T) {
	o, err := parseShotArgs([]string{"redis-gc-pause", "--out", "x.png", "--lang", "zh"})
	require.NoError(t, err)
	assert.Equal(t, i18n.Chinese, o.lang)
	_, err = parseShotArgs([]string{"redis-gc-pause", "--out", "x.png", "--lang=fr"})
	assert.EqualError(t, err, `--lang: want en or zh, got "fr"`)

	out := filepath.Join(t.TempDir(), "zh.png")
	code, _, stderr := invoke("shot", "redis-gc-pause", "--at", "12s", "--out", out, "--size", "800x600", "--scale", "1", "--lang", "zh")
	require.Equal(t, exitOK, code, stderr)
	st, err := os.Stat(out)
	require.NoError(t, err)
	assert.Positive(t, st.Size())
	assert.Equal(t, i18n.English, i18n.Current())
}

// An election's report says how long two led at once and how long none
// did, the figures of run --json's metrics; a lock's says neither.
func TestRunReportOfAnElection(t *testing.T) {
	_, out, _ := invoke("run", "k8s-paused-leader")
	assert.Contains(t, out, "time with two leaders  19003.126 ms\ntime with no leader    29.454 ms\n")
	_, out, _ = invoke("run", "redis-gc-pause")
	assert.NotContains(t, out, "leader")
}
