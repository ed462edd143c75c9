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
)

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
