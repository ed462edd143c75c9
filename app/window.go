package app

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
)

// DefaultSize is the window's size at start: room for the cluster, the
// state picture and a readable timeline side by side.
var DefaultSize = fyne.NewSize(1400, 900)

// Window is the LockScope window: a tab per mode with a state picture.
type Window struct {
	fyne.Window

	tabs    []*tabView
	appTabs *container.AppTabs
	tips    *widgets.TipLayer
}

// NewWindow builds the window on any Fyne app (tests pass test.NewApp()).
func NewWindow(a fyne.App) *Window {
	w := &Window{Window: a.NewWindow("LockScope"), tips: widgets.NewTipLayer()}
	var items []*container.TabItem
	for _, spec := range availableTabs() {
		v := newTabView(spec, w.Window, w.tips)
		w.tabs = append(w.tabs, v)
		items = append(items, container.NewTabItem(spec.Title, v.content))
	}
	w.appTabs = container.NewAppTabs(items...)
	w.appTabs.OnSelected = func(*container.TabItem) { w.selected() }
	w.SetContent(container.NewStack(w.appTabs, w.tips))
	w.Resize(DefaultSize)
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if v := w.current(); v != nil {
			v.typedKey(ev.Name)
		}
	})
	w.SetOnClosed(func() {
		for _, v := range w.tabs {
			v.stopTicker()
		}
	})
	return w
}

// current is the tab on show.
func (w *Window) current() *tabView {
	i := w.appTabs.SelectedIndex()
	if i < 0 || i >= len(w.tabs) {
		return nil
	}
	return w.tabs[i]
}

// selected pauses the tabs out of sight, so only the visible one can play.
func (w *Window) selected() {
	cur := w.current()
	for _, v := range w.tabs {
		if v != cur && v.ctl.Playing() {
			v.ctl.Pause()
			v.syncTicker()
			v.show()
		}
	}
}

// Controller is the controller of a mode's tab, nil when it has none.
func (w *Window) Controller(mode string) *Controller {
	if v := w.tab(mode); v != nil {
		return v.ctl
	}
	return nil
}

// Pictures are the drawings of a mode's tab, nil when it has none.
func (w *Window) Pictures(mode string) *Pictures {
	if v := w.tab(mode); v != nil {
		return v.pics
	}
	return nil
}

func (w *Window) tab(mode string) *tabView {
	for _, v := range w.tabs {
		if v.spec.Mode == mode {
			return v
		}
	}
	return nil
}

// Load shows a scenario (an opened file, a dropped file) in its mode's
// tab and selects that tab. On error nothing changes.
func (w *Window) Load(sc *sim.Scenario, origin string) error {
	v := w.tab(sc.Mode)
	if v == nil {
		return fmt.Errorf("mode: no %q tab in this window (tabs: %s)", sc.Mode, strings.Join(w.Modes(), ", "))
	}
	if err := v.LoadScenario(sc, origin); err != nil {
		return err
	}
	w.appTabs.SelectIndex(w.index(v))
	return nil
}

// CurrentMode is the mode of the tab on show.
func (w *Window) CurrentMode() string {
	if v := w.current(); v != nil {
		return v.spec.Mode
	}
	return ""
}

func (w *Window) index(v *tabView) int {
	for i, t := range w.tabs {
		if t == v {
			return i
		}
	}
	return -1
}

// Modes lists the modes of the tabs in window order.
func (w *Window) Modes() []string {
	var out []string
	for _, v := range w.tabs {
		out = append(out, v.spec.Mode)
	}
	return out
}
