package app

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// DefaultSize is the window's size at start when the screen's size is not
// known: room for the cluster, the state picture and a readable timeline
// side by side. On a desktop the window fits its screen (FitScreen).
var DefaultSize = fyne.NewSize(1400, 900)

// Window is the LockScope window: a tab per mode with a state picture.
type Window struct {
	fyne.Window

	tabs    []*tabView
	appTabs *container.AppTabs
	tips    *widgets.TipLayer
	files   *windowFiles // open, save, export and the session (files.go)

	app      fyne.App
	settings Settings                // what is kept between runs
	menus    []MenuGroup             // the menu bar, also the keyboard's actions
	mods     func() fyne.KeyModifier // the modifiers held, for tests; nil: the driver's
	help     *widget.PopUp
	job      *recordJob // the scenario being recorded in the background, if any
	tour     *tour      // the guided tour on show, if any (tour.go)

	// screen is the usable area of the screen the window opens on, zero
	// when unknown (tests); Run sets it from the desktop (screen_desktop.go).
	screen func(fyne.Canvas) fyne.Size
}

// NewWindow builds the window on any Fyne app (tests pass test.NewApp()).
// It opens as the user left it: language, theme, tab, presets, sliders,
// speed and size come from the app's Preferences (see Settings).
func NewWindow(a fyne.App) *Window {
	registerTranslations()
	w := &Window{Window: a.NewWindow("LockScope"), tips: widgets.NewTipLayer(),
		app: a, settings: NewSettings(a.Preferences())}
	i18n.Set(startLanguage(w.settings))
	a.Settings().SetTheme(&Theme{Choice: w.settings.Theme()})
	for _, spec := range designtab.Tabs() {
		w.tabs = append(w.tabs, newTabView(spec, w.Window, w.tips))
	}
	w.restore()
	w.build(w.modeIndex(w.settings.Mode()))
	w.Resize(w.settings.WindowSize())
	w.Canvas().SetOnTypedKey(w.typedKey)
	w.Canvas().SetOnTypedRune(w.typedRune)
	w.SetOnClosed(func() {
		w.SaveSettings()
		for _, v := range w.tabs {
			v.stopTicker()
		}
		w.closeFiles()
	})
	w.installFiles()
	return w
}

// FitScreen sizes the window for its screen: the size the user left it at
// if that still fits, else one that does (fitWindow).
func (w *Window) FitScreen() {
	var area fyne.Size
	if w.screen != nil {
		area = w.screen(w.Canvas())
	}
	saved, ok := w.settings.SavedWindowSize()
	w.Resize(fitWindow(saved, ok, area))
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
	if cur != nil {
		w.showTitle(cur)
	}
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
