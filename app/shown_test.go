package app

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
)

// readersCell is the readers slider of a tab, nil when it has none.
func readersCell(v *tabView) *sliderControl {
	for _, s := range v.controls.sliders {
		if s.spec.Key == "readers" {
			return s
		}
	}
	return nil
}

// ZooKeeper's and etcd's readers slider is on show beside a read–write
// scenario only (SliderSpec.Shown): hidden on the tab's default preset,
// shown when a read–write preset loads, kept while it is dragged to 0,
// hidden again when a preset without readers loads. Redis's is always on
// show.
func TestTheReadersSliderShowsBesideAReadWriteLock(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	a := test.NewTempApp(t)
	w := NewWindow(a)
	defer w.Close()
	for _, tc := range []struct{ tab, rw, plain string }{
		{"zookeeper", "zk-read-write", "zk-happy-path"},
		{"etcd", "etcd-read-write", "etcd-happy-path"},
	} {
		t.Run(tc.tab, func(t *testing.T) {
			v := w.tab(tc.tab)
			r := readersCell(v)
			require.NotNil(t, r, "the tab has a readers slider")
			assert.False(t, r.cell.Visible(), "hidden on the default preset")
			v.toolbar.selectPreset(tc.rw)
			assert.True(t, r.cell.Visible(), "on show beside a read–write lock")
			assert.Equal(t, 2.0, r.current())
			r.set(0)
			assert.False(t, v.ctl.Scenario().Option("readers").IsOn(v.ctl.Scenario()), "dragged to 0: a mutex again")
			assert.True(t, r.cell.Visible(), "still on show after the drag")
			v.toolbar.selectPreset(tc.plain)
			assert.False(t, r.cell.Visible(), "hidden again for a preset without readers")
		})
	}
	r := readersCell(w.tab("redis"))
	require.NotNil(t, r)
	assert.True(t, r.cell.Visible(), "Redis's toolbar has room for it always")
}
