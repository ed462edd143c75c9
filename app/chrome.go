package app

import (
	"fmt"
	"runtime"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/widgets"
)

// setSpeed moves the tab's speed control to s, as a choice in its list
// would, and the status line with it.
func (v *tabView) setSpeed(s Speed) {
	v.ctl.SetSpeed(s)
	v.toolbar.syncSpeed()
	v.status.SetText(v.ctl.Status())
}

// rebuilt is the tab built anew around the same controller, so every word
// is looked up again in the current language; the run, cursor, speed and
// play state carry over.
func (v *tabView) rebuilt() *tabView {
	v.stopTicker()
	nv := buildTabView(v.spec, v.ctl, v.win, v.tips)
	nv.showRun()
	nv.syncTicker()
	return nv
}

// onCurrent runs f on the tab on show, if any.
func (w *Window) onCurrent(f func(v *tabView)) func() {
	return func() {
		if v := w.current(); v != nil {
			f(v)
		}
	}
}

// actions are the window's menus: every toolbar action, the tabs, the
// language and theme, settings and help, each with its key.
func (w *Window) actions() []MenuGroup {
	short := fyne.KeyModifierShortcutDefault
	file := MenuGroup{Title: "menu.file", Actions: append(w.fileActions(), []*Action{
		{Label: "menu.settings", Key: fyne.KeyComma, Mod: short, Do: w.ShowSettings},
		nil,
		{Label: "menu.quit", Key: fyne.KeyQ, Mod: short, Do: w.quit},
	}...)}
	edit := MenuGroup{Title: "menu.edit", Actions: []*Action{
		{Label: "action.undo", Key: fyne.KeyZ, Mod: short, Do: w.onCurrent((*tabView).undo),
			Text:     w.editText("menu.undoWhat", "action.undo", (*Controller).UndoText),
			Disabled: func() bool { v := w.current(); return v == nil || !v.ctl.CanUndo() }},
		{Label: "action.redo", Key: fyne.KeyZ, Mod: short | fyne.KeyModifierShift, Do: w.onCurrent((*tabView).redo),
			Text:     w.editText("menu.redoWhat", "action.redo", (*Controller).RedoText),
			Disabled: func() bool { v := w.current(); return v == nil || !v.ctl.CanRedo() }},
	}}
	view := MenuGroup{Title: "menu.view"}
	tabKeys := []fyne.KeyName{fyne.Key1, fyne.Key2, fyne.Key3, fyne.Key4, fyne.Key5, fyne.Key6, fyne.Key7, fyne.Key8, fyne.Key9}
	for i, v := range w.tabs {
		i, label := i, "tab."+v.spec.Mode
		a := &Action{Label: label, Do: func() { w.appTabs.SelectIndex(i) },
			Checked: func() bool { return w.appTabs != nil && w.appTabs.SelectedIndex() == i }}
		if i < len(tabKeys) {
			a.Key, a.Mod = tabKeys[i], short
		}
		view.Actions = append(view.Actions, a)
	}
	view.Actions = append(view.Actions, nil,
		&Action{Label: "menu.tradeoff", Key: fyne.KeyM, Do: w.onCurrent(func(v *tabView) { v.tradeoff.toggle() })},
		&Action{Label: "menu.eventlog", Key: fyne.KeyE, Do: func() { w.ShowEventLog(!EventLogShown()) }},
		&Action{Label: "menu.dashboard", Key: fyne.KeyG, Do: func() { w.ShowDashboard(!DashboardShown()) }, Checked: DashboardShown},
		&Action{Label: "menu.storyStops", Key: fyne.KeyS, Do: func() { w.SetStoryStops(!w.settings.StoryStops()) },
			Checked: w.settings.StoryStops},
		nil,
		&Action{Label: "menu.language.next", Key: fyne.KeyL, Mod: short, Do: w.nextLanguage},
		&Action{Label: "menu.theme.next", Key: fyne.KeyT, Mod: short, Do: w.nextTheme})
	langs := MenuGroup{Title: "menu.language"}
	for _, l := range i18n.Langs {
		l := l
		langs.Actions = append(langs.Actions, &Action{Label: "lang." + string(l), Do: func() { w.SetLanguage(l) },
			Checked: func() bool { return i18n.Current() == l }})
	}
	themes := MenuGroup{Title: "menu.theme"}
	for _, c := range ThemeChoices {
		c := c
		themes.Actions = append(themes.Actions, &Action{Label: "theme." + string(c), Do: func() { w.SetTheme(c) },
			Checked: func() bool { return w.settings.Theme() == c }})
	}
	view.Subs = []MenuGroup{langs, themes}

	sim := MenuGroup{Title: "menu.simulation", Actions: []*Action{
		{Label: "action.play", Key: fyne.KeySpace, Do: w.onCurrent((*tabView).togglePlay)},
		{Label: "action.step", Key: fyne.KeyRight, Do: w.onCurrent((*tabView).stepForward)},
		{Label: "action.delta", Key: fyne.KeyD, Do: w.onCurrent((*tabView).stepDelta)},
		{Label: "action.back", Key: fyne.KeyLeft, Do: w.onCurrent((*tabView).stepBack)},
		{Label: "action.reset", Key: fyne.KeyR, Do: w.onCurrent((*tabView).rewind)},
		{Label: "action.home", Key: fyne.KeyHome, Do: w.onCurrent(func(v *tabView) { v.jump(0) })},
		{Label: "action.end", Key: fyne.KeyEnd, Do: w.onCurrent(func(v *tabView) { v.jump(v.ctl.End()) })},
		nil,
		{Label: "action.nextMoment", Key: fyne.KeyN, Do: w.onCurrent(func(v *tabView) { v.jumpMoment(true) })},
		{Label: "action.prevMoment", Key: fyne.KeyN, Mod: fyne.KeyModifierShift, Do: w.onCurrent(func(v *tabView) { v.jumpMoment(false) })},
		nil,
		{Label: "action.faster", Key: fyne.KeyRightBracket, Do: w.onCurrent(func(v *tabView) { v.setSpeed(v.ctl.Speed().next(true)) })},
		{Label: "action.slower", Key: fyne.KeyLeftBracket, Do: w.onCurrent(func(v *tabView) { v.setSpeed(v.ctl.Speed().next(false)) })},
		{Label: "action.speed1", Key: fyne.KeyBackslash, Do: w.onCurrent(func(v *tabView) { v.setSpeed(SpeedReal) })},
		nil,
		{Label: "action.nextPreset", Key: fyne.KeyPageDown, Do: w.onCurrent(func(v *tabView) { v.toolbar.stepPreset(true) })},
		{Label: "action.prevPreset", Key: fyne.KeyPageUp, Do: w.onCurrent(func(v *tabView) { v.toolbar.stepPreset(false) })},
		nil,
		{Label: "action.break", Key: fyne.KeyB, Do: w.onCurrent(func(v *tabView) { v.breakIt.open() })},
	}}
	help := MenuGroup{Title: "menu.help", Actions: []*Action{
		{Label: "menu.shortcuts", Key: fyne.KeyF1, Rune: '?', Do: w.ToggleShortcuts},
		{Label: "menu.tour", Do: w.ShowTour},
		{Label: "menu.about", Do: w.showAbout},
	}}
	return []MenuGroup{file, edit, view, sim, help}
}

// editText is the words of the Undo or Redo entry: what it would do on
// the tab on show (key, with the edit), or the plain label.
func (w *Window) editText(key, plain string, what func(*Controller) string) func() string {
	return func() string {
		if v := w.current(); v != nil {
			if s := what(v.ctl); s != "" {
				return i18n.F(key, "what", s)
			}
		}
		return i18n.T(plain)
	}
}

// Menus are the window's menu groups as the menu bar shows them.
func (w *Window) Menus() []MenuGroup { return w.menus }

// relabel builds every word of the window again in the current language:
// the tabs (around their controllers), the menu bar, the tab titles. A tab
// a design registers (designtab.Register) gets this for free: it is built the same way.
func (w *Window) relabel() {
	sel := 0
	if w.appTabs != nil {
		sel = w.appTabs.SelectedIndex()
	}
	// A tour on show points at the old tab's parts and speaks the old
	// language: it opens again, at the same stop, over the rebuilt window.
	tourAt := -1
	if w.tour != nil {
		tourAt = w.tour.at
		w.CloseTour()
	}
	defer func() {
		if tourAt >= 0 {
			w.showTourAt(tourAt)
		}
	}()
	for i, v := range w.tabs {
		v.ctl.note = "" // said in the old language; the next action speaks the new one
		w.tabs[i] = v.rebuilt()
	}
	w.tips.HideTip()
	w.build(sel)
}

// build lays the window out from its tabs and sets the menu bar.
func (w *Window) build(sel int) {
	var items []*container.TabItem
	for _, v := range w.tabs {
		items = append(items, container.NewTabItem(i18n.T("tab."+v.spec.Mode), v.content))
	}
	w.appTabs = container.NewAppTabs(items...)
	if sel >= 0 && sel < len(items) {
		w.appTabs.SelectIndex(sel)
	}
	w.appTabs.OnSelected = func(*container.TabItem) {
		w.selected()
		w.refreshMenu()
	}
	w.SetContent(container.NewStack(w.appTabs, w.fileStrip(), w.tips))
	w.refreshMenu()
	for _, v := range w.tabs {
		v.onTitle = w.showTitle
		v.onRun = func(v *tabView) { // Undo and Redo say what they would do
			if v == w.current() {
				w.refreshMenu()
			}
		}
	}
	if v := w.current(); v != nil {
		w.showTitle(v)
	}
}

// showTitle puts the current tab's run in the window's title, marked
// when it was edited.
func (w *Window) showTitle(v *tabView) {
	if v != w.current() {
		return
	}
	title := "LockScope"
	if v.ctl.Loaded() {
		title += " — " + v.ctl.Title()
	}
	w.SetTitle(title)
}

// refreshMenu sets the menu bar again, with the current words and checks.
func (w *Window) refreshMenu() {
	w.menus = w.actions()
	w.SetMainMenu(mainMenu(w.menus))
}

// SetLanguage switches every word of the window to l at once and keeps
// the choice.
func (w *Window) SetLanguage(l i18n.Lang) {
	w.settings.SetLanguage(l)
	if i18n.Set(l) {
		w.relabel()
	}
}

func (w *Window) nextLanguage() {
	for i, l := range i18n.Langs {
		if l == i18n.Current() {
			w.SetLanguage(i18n.Langs[(i+1)%len(i18n.Langs)])
			return
		}
	}
}

// SetTheme switches to the theme choice and keeps it.
func (w *Window) SetTheme(c ThemeChoice) {
	w.settings.SetTheme(c)
	w.app.Settings().SetTheme(&Theme{Choice: c})
	w.refreshMenu()
}

func (w *Window) nextTheme() {
	cur := w.settings.Theme()
	for i, c := range ThemeChoices {
		if c == cur {
			w.SetTheme(ThemeChoices[(i+1)%len(ThemeChoices)])
			return
		}
	}
}

// typedKey runs the action of a key pressed without a modifier. Every
// key is an action of the menus, so the shortcut overlay (F1) lists it.
func (w *Window) typedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && w.help != nil && w.help.Visible() {
		w.help.Hide()
		return
	}
	if v := w.current(); ev.Name == fyne.KeyEscape && w.tour == nil && v != nil && v.breakIt.closeResult() {
		return
	}
	if w.tour != nil { // the tour is modal: its keys only
		switch ev.Name {
		case fyne.KeyEscape:
			w.CloseTour()
		case fyne.KeyRight, fyne.KeyReturn, fyne.KeyEnter:
			w.tour.show(w.tour.at + 1)
		case fyne.KeyLeft:
			w.tour.show(w.tour.at - 1)
		}
		return
	}
	if w.keyMods()&fyne.KeyModifierShift != 0 {
		if a := shiftedKey(w.menus, ev.Name); a != nil {
			a.Do()
			return
		}
	}
	if a := plainKey(w.menus, ev.Name); a != nil {
		a.Do()
	}
}

// keyMods are the modifiers held as a key is typed: the desktop driver
// hands a key with Shift alone to the window as a plain key (it makes no
// shortcut of it), so Shift+N is told from N here.
func (w *Window) keyMods() fyne.KeyModifier {
	if w.mods != nil {
		return w.mods()
	}
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
		return d.CurrentKeyModifiers()
	}
	return 0
}

// typedRune runs the action of a typed character ('?').
func (w *Window) typedRune(r rune) {
	if a := typedRune(w.menus, r); a != nil {
		a.Do()
	}
}

// ToggleShortcuts shows the keyboard overlay, or hides it when it shows.
func (w *Window) ToggleShortcuts() {
	if w.help != nil && w.help.Visible() {
		w.help.Hide()
		return
	}
	// Two columns, the menus alternating, each a stack: the File and
	// Simulation lists are long, View and Help short.
	cols := []*fyne.Container{container.NewVBox(), container.NewVBox()}
	for i, g := range w.menus {
		var rows []fyne.CanvasObject
		title := widget.NewLabelWithStyle(i18n.T(g.Title), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		rows = append(rows, title)
		form := container.New(layout.NewFormLayout())
		eachAction([]MenuGroup{g}, func(a *Action) {
			if k := a.KeysText(); k != "" {
				form.Add(widget.NewLabelWithStyle(k, fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true}))
				form.Add(widget.NewLabel(i18n.T(a.Label)))
			}
		})
		rows = append(rows, form)
		for _, r := range rows {
			cols[i%2].Add(r)
		}
	}
	head := widget.NewLabelWithStyle(i18n.T("help.shortcuts.title"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	head.SizeName = theme.SizeNameSubHeadingText
	hint := widget.NewLabel(i18n.T("help.shortcuts.hint"))
	hint.Importance = widget.LowImportance
	var popup *widget.PopUp
	closeBtn := widget.NewButtonWithIcon(i18n.T("dialog.close"), theme.CancelIcon(), func() { popup.Hide() })
	body := container.NewVBox(
		container.NewBorder(nil, nil, nil, closeBtn, head),
		widget.NewSeparator(),
		container.NewGridWithColumns(2, cols[0], cols[1]),
		widget.NewSeparator(),
		hint,
	)
	popup = widget.NewModalPopUp(container.NewPadded(body), w.Canvas())
	w.help = popup
	popup.Show()
}

// ShowSettings opens the settings: language, theme, reset to defaults.
func (w *Window) ShowSettings() {
	var d dialog.Dialog
	var names []string
	for _, l := range i18n.Langs {
		names = append(names, l.Name())
	}
	langSel := widgets.NewTipSelect(names, nil, w.tips, i18n.T("settings.language.tip"))
	langSel.SetSelected(i18n.Current().Name())
	langSel.OnChanged = func(name string) {
		for _, l := range i18n.Langs {
			if l.Name() == name && l != i18n.Current() {
				d.Hide()
				w.SetLanguage(l)
				w.ShowSettings()
			}
		}
	}
	var themeNames []string
	for _, c := range ThemeChoices {
		themeNames = append(themeNames, i18n.T("theme."+string(c)))
	}
	themeSel := widgets.NewTipSelect(themeNames, nil, w.tips, i18n.T("settings.theme.tip"))
	themeSel.SetSelected(i18n.T("theme." + string(w.settings.Theme())))
	themeSel.OnChanged = func(name string) {
		for _, c := range ThemeChoices {
			if i18n.T("theme."+string(c)) == name {
				w.SetTheme(c)
			}
		}
	}
	reset := widgets.NewTipButton(i18n.T("settings.reset"), theme.HistoryIcon(), func() {
		d.Hide()
		w.ResetSettings()
	}, w.tips, i18n.T("settings.reset.tip"))
	form := container.New(layout.NewFormLayout(),
		widget.NewLabelWithStyle(i18n.T("settings.language"), fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}), langSel,
		widget.NewLabelWithStyle(i18n.T("settings.theme"), fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}), themeSel,
	)
	note := widget.NewLabel(i18n.T("settings.remembered"))
	note.Wrapping = fyne.TextWrapWord
	note.Importance = widget.LowImportance
	body := container.NewVBox(form, widget.NewSeparator(), note, container.NewHBox(layout.NewSpacer(), reset))
	d = dialog.NewCustom(i18n.T("settings.title"), i18n.T("dialog.close"), body, w)
	d.Resize(fyne.NewSize(480, 300))
	d.Show()
}

// SetStoryStops sets whether a run with captions plays as a story,
// stopping at each caption, in every tab, and keeps the choice.
func (w *Window) SetStoryStops(on bool) {
	w.settings.SetStoryStops(on)
	for _, v := range w.tabs {
		v.ctl.SetStoryStops(on)
		v.toolbar.syncSpeed()
		v.show()
	}
	w.refreshMenu()
}

// ResetSettings forgets every saved setting and puts the window back as
// on a first start: the system's language and theme, each tab on its first
// preset at normal speed, the first tab, a size that fits the screen.
func (w *Window) ResetSettings() {
	w.settings.Reset()
	w.app.Settings().SetTheme(&Theme{Choice: ThemeSystem})
	for _, v := range w.tabs {
		v.stopTicker()
		v.ctl.SetSpeed(SpeedStory)
		v.ctl.SetStoryStops(true)
		if v.spec.Preset != "" {
			if err := v.ctl.LoadPreset(v.spec.Preset); err != nil {
				fyne.LogError("loading preset "+v.spec.Preset, err)
			}
		}
	}
	i18n.Set(SystemLanguage())
	w.relabel()
	w.appTabs.SelectIndex(0)
	w.FitScreen()
}

// restore puts the saved settings back: each tab's preset, sliders and
// toggles, the speed and the tab on show.
func (w *Window) restore() {
	speed := w.settings.Speed()
	for _, v := range w.tabs {
		v.ctl.SetStoryStops(w.settings.StoryStops())
		if st, ok := w.settings.Tab(v.spec.Mode); ok {
			restoreTab(v.spec, v.ctl, st)
		}
		v.ctl.SetSpeed(v.ctl.defaultSpeed(speed))
		v.showRun()
	}
}

// modeIndex is the index of the tab of a mode, 0 when there is none.
func (w *Window) modeIndex(mode string) int {
	for i, v := range w.tabs {
		if v.spec.Mode == mode {
			return i
		}
	}
	return 0
}

// SaveSettings keeps what the window shows for the next start: the tab on
// show, the speed, the size and every tab's preset, sliders and toggles.
// The window calls it when it closes.
func (w *Window) SaveSettings() {
	speed := SpeedStory
	if v := w.current(); v != nil {
		speed = v.ctl.Speed()
	}
	w.settings.SaveSession(w.CurrentMode(), speed, w.Canvas().Size())
	for _, v := range w.tabs {
		w.settings.SaveTab(v.spec.Mode, tabState(v.spec, v.ctl))
	}
}

func (w *Window) quit() {
	w.Close()
}

// showAbout says what LockScope is.
func (w *Window) showAbout() {
	text := widget.NewLabel(i18n.T("about.text"))
	text.Wrapping = fyne.TextWrapWord
	version := Version
	if version == "" {
		version = w.app.Metadata().Version
	}
	ver := widget.NewLabelWithStyle(i18n.F("about.version", "version", version), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	if version == "" {
		ver.Hide()
	}
	icon := canvas.NewImageFromResource(fyne.NewStaticResource("icon.png", assets.Icon()))
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSize(64, 64))
	build := widget.NewLabel(fmt.Sprintf("%s · %s/%s · %s", runtime.Version(), runtime.GOOS, runtime.GOARCH, AppID))
	head := container.NewBorder(nil, nil, icon, nil, container.NewVBox(ver, build))
	d := dialog.NewCustom(i18n.T("about.title"), i18n.T("dialog.close"), container.NewVBox(head, text), w)
	d.Resize(fyne.NewSize(520, 260))
	d.Show()
}

// showError shows an error with LockScope's words on the dialog: Fyne's
// own error dialog takes its title and button from the system's language.
func showError(err error, w fyne.Window) {
	text := widget.NewLabel(widgets.ErrorText(err))
	text.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom(i18n.T("dialog.error"), i18n.T("dialog.ok"), text, w)
	d.Resize(fyne.NewSize(520, 200))
	d.Show()
}
