package widgets

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

// Every sentence a node's Detail or an attempt's Note holds, through every
// bundled preset, comes with its key, and that key's English is the
// simulator's own sentence to the character: the window says in Chinese
// exactly what the traces say in English.
func TestSayIsTheSimulatorsEnglish(t *testing.T) {
	require.Equal(t, i18n.English, i18n.Current())
	seen := map[string]bool{}
	for _, name := range simtest.PresetNames() {
		sc, err := simtest.Load(name)
		require.NoError(t, err)
		rec, err := sim.Record(sc)
		require.NoError(t, err)
		instants := rec.EventTimes()
		events, step := len(instants), len(instants)/200+1
		for i := 0; i <= 100; i++ {
			instants = append(instants, rec.End()*time.Duration(i)/100)
		}
		for i, at := range instants {
			if i < events && i%step != 0 {
				continue
			}
			s := rec.At(at)
			for _, n := range s.Nodes {
				if n.Detail == "" {
					assert.Empty(t, n.DetailWords.Key, "%s at %v: %s has words but no Detail", name, at, n.Name)
					continue
				}
				if assert.NotEmpty(t, n.DetailWords.Key, "%s at %v: %s's %q has no key", name, at, n.Name, n.Detail) {
					seen[n.DetailWords.Key] = true
					assert.Equal(t, n.Detail, Say(n.DetailWords, ""), "%s at %v: %s", name, at, n.Name)
				}
			}
			if redlock.ViewOf(s) == nil {
				continue
			}
			for _, a := range redlock.ViewOf(s).Attempts {
				if a.Note == "" {
					continue
				}
				if assert.NotEmpty(t, a.NoteWords.Key, "%s at %v: %s's note %q has no key", name, at, a.Client, a.Note) {
					seen[a.NoteWords.Key] = true
					assert.Equal(t, a.Note, Say(a.NoteWords, ""), "%s at %v: %s", name, at, a.Client)
				}
			}
		}
	}
	for _, key := range []string{"detail.redis.watchdog", "detail.redlock.left", "detail.redlock.votes", "detail.redlock.phase",
		"note.redlock.noQuorum", "detail.storage", "detail.storage.fenced", "detail.zk.suspended", "detail.zk.connected", "detail.zk.connecting",
		"detail.zk.looking", "detail.zk.server", "detail.etcd.server", "detail.etcd.clientLeaseVia"} {
		assert.True(t, seen[key], "no preset ever says %s", key)
	}
}

func TestSayFallsBackToTheEnglish(t *testing.T) {
	assert.Equal(t, "as built by hand", Say(sim.Words{}, "as built by hand"))
	w := sim.Words{Key: "detail.redlock.phase", Args: map[string]string{"try": "3"}, Terms: map[string]string{"phase": "gave up"}}
	assert.Equal(t, "try 3: gave up", Say(w, ""))
	widgettest.InChinese(t)
	assert.Equal(t, "第 3 次尝试："+i18n.In(i18n.Chinese, "term.gave up"), Say(w, ""))
}

// Every note of every bundled preset's trace that is a sentence comes with
// its key, and that key's English is the note to the character; the notes
// without one are figures (a pause's length, a partition, a changed
// setting, a watched path), shown as they are in every language.
func TestTraceNotesAreTheSimulatorsEnglish(t *testing.T) {
	require.Equal(t, i18n.English, i18n.Current())
	figures := map[string]bool{"fault": true, "change": true, "watch": true}
	seen := map[string]bool{}
	for _, name := range simtest.PresetNames() {
		sc, err := simtest.Load(name)
		require.NoError(t, err)
		rec, err := sim.Record(sc)
		require.NoError(t, err)
		for _, e := range rec.Trace() {
			if e.NoteWords.Key == "" {
				assert.True(t, e.Note == "" || figures[e.Kind.String()], "%s at %v: %s %s note %q has no key", name, e.At, e.Kind, e.Op, e.Note)
				continue
			}
			seen[e.NoteWords.Key] = true
			assert.Equal(t, e.Note, Say(e.NoteWords, ""), "%s at %v: %s %s", name, e.At, e.Kind, e.Op)
		}
	}
	for _, key := range []string{"note.grant", "note.release", "note.gaveUp", "note.redlock.granted", "note.redlock.failed",
		"note.redlock.ranOutUnseen", "note.redis.releaseNotOurs", "note.zk.sessionExpired", "note.zk.suspendedNoWrite",
		"note.storage.read", "note.storage.write", "note.storage.readToken", "note.storage.writeToken", "note.storage.guarded", "note.storage.refused",
		"note.etcd.sessionDone", "note.etcd.streamBroken", "note.etcd.leaseGranted", "note.asIs"} {
		assert.True(t, seen[key], "no preset's trace ever says %s", key)
	}
}

// A sentence inside a sentence (the reason a client gave up) is said in
// the language of the one around it.
func TestSayNestsSentences(t *testing.T) {
	w := sim.Words{Key: "note.gaveUp", Args: map[string]string{"tries": "3"},
		Parts: map[string]sim.Words{"why": {Key: "note.redis.timedOut"}}}
	assert.Equal(t, "timed out; gave up after 3 tries", Say(w, ""))
	widgettest.InChinese(t)
	assert.Equal(t, "超时；尝试 3 次后放弃", Say(w, ""))
}

// Chinese breaks between characters and at spaces, never inside a Latin
// word, and a closing mark never starts a line.
func TestWrapWordsKeepsLatinWordsWhole(t *testing.T) {
	text := "光标时刻的状态，用这种设计自己的概念来画：锁键和它的 TTL 条（Redis）、每个主节点的投票（Redlock）、znode 队列（ZooKeeper）。"
	for _, width := range []float32{60, 120, 200, 330} {
		lines := WrapWords(text, 14, width)
		require.Greater(t, len(lines), 1, "width %v", width)
		joined := strings.Join(lines, "")
		for _, word := range []string{"Redis", "Redlock", "ZooKeeper", "znode", "TTL"} {
			whole := false
			for _, l := range lines {
				whole = whole || strings.Contains(l, word)
			}
			assert.True(t, whole, "width %v: %q is broken across lines %q", width, word, lines)
		}
		for i, l := range lines {
			assert.LessOrEqual(t, TextWidth(l, 14, false), max(width, TextWidth("（ZooKeeper）。", 14, false)), "width %v: line %q", width, l)
			if i > 0 {
				assert.NotContains(t, "，。；：！？、）", string([]rune(l)[0:1]), "width %v: line %d starts with a closing mark", width, i)
			}
		}
		assert.Equal(t, strings.ReplaceAll(text, " ", ""), strings.ReplaceAll(joined, " ", ""), "nothing is lost")
	}
	assert.Equal(t, []string{"hello world"}, WrapWords("hello world", 14, 500))
}
