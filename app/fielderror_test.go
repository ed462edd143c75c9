package app

import (
	"os"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redlock"
)

// A scenario field's problem reads in the window's language, wherever the
// wrapping put it (after the file's name, inside a change, after the
// fault that failed over): the field keeps its JSON name, the English is
// the simulator's own.
func TestErrorTextSaysAFieldsProblemInTheLanguage(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	for _, tc := range []struct{ doc, zh string }{
		{`{"mode": "redis", "clients": 201}`, "clients: 201，应在 1 到 200 之间"},
		{`{"mode": "redis", "changes": [{"at": "1s", "set": {"ttl": "-5s"}}]}`, "changes[0].set: ttl: -5s 是负数"},
		{`{"mode": "redis", "changes": [{"at": "1s", "set": {"ttl": "5x"}}]}`, `changes[0].set.ttl: 应为时长，例如 "10s"，实际是 "5x"`},
		{`{"mode": "redis", "faults": [{"at": "1s", "failover": "redis-1"}]}`, `faults[0].failover: 故障转移需要副本：请设置 "replica": true`},
		{`{"mode": "etcd", "herd": true, "sequential": true}`, "sequential: 只用于 redlock"},
		{`{"mode": "redis", "herd": true}`, "herd: 只有 zookeeper 和 etcd 有会引发羊群效应的 watch"},
		{`{"mode": "etcd", "failoverAfter": "2s"}`, "failoverAfter: 只用于带副本的 redis（Sentinel 的延迟）"},
		{`{"mode": "redlock", "fencing": true}`, "fencing: Redlock 没有 fencing 令牌：它的锁值是随机的，没有顺序，所以存储分不清旧持有者迟到的写入和新持有者的写入（Kleppmann，《How to do distributed locking》）"},
		{`{"mode": "paxos"}`, `mode: 未知模式 "paxos"（可选 redis, redlock, zookeeper, etcd 之一）`},
	} {
		_, err := sim.ParseScenario([]byte(tc.doc))
		require.Error(t, err)
		i18n.Set(i18n.English)
		assert.Equal(t, err.Error(), errorText(err), "English is the simulator's own")
		i18n.Set(i18n.Chinese)
		assert.Equal(t, tc.zh, errorText(err), tc.doc)
	}
	i18n.Set(i18n.Chinese)
	assert.Contains(t, errorText(redlock.ErrRedlockFencing), "没有 fencing 令牌", "the fencing refusal keeps its own words")
}

// In Chinese, a bad file opened through File > Open gets one dialog that
// names the file and the field and says the problem in Chinese.
func TestOpeningABadFileInChineseNamesTheField(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	before := v.ctl.Scenario()
	inChinese(t, w)
	u := fileURI(t, "bad"+ScenarioExt)
	doc := `{"mode": "redis", "faults": [{"at": "2s", "pause": "redis-9", "for": "1s"}]}`
	require.NoError(t, os.WriteFile(u.Path(), []byte(doc), 0o644))
	w.files.chooseOpen = func(then func(fyne.URI)) { then(u) }
	w.Open()

	top := w.Canvas().Overlays().Top()
	require.NotNil(t, top, "the problem is shown in a dialog")
	var labels []string
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok {
			labels = append(labels, l.Text)
		}
	}
	assert.Contains(t, labels, i18n.In(i18n.Chinese, "files.cannotOpen"))
	assert.Contains(t, labels, `bad.lockscope.json: faults[0].pause: 未知节点 "redis-9"（已知：client-1, client-2, redis-1, storage）`)
	assert.Same(t, before, w.tab("redis").ctl.Scenario(), "nothing replaced")
}
