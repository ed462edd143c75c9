package app

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/designs"
	"github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// TestMain installs the list of designs (no design adds itself) and pins
// the locale the window reads on a first start to English, so the tests
// read the same words on a developer's Chinese desktop.
func TestMain(m *testing.M) {
	if err := designs.InstallAll(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for _, k := range []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES"} {
		os.Unsetenv(k)
	}
	os.Setenv("LANG", "en_US.UTF-8")
	os.Exit(m.Run())
}

// inChinese switches the lookup to Chinese for one test.
func inChinese(t *testing.T, w *Window) {
	t.Helper()
	w.SetLanguage(i18n.Chinese)
	t.Cleanup(func() { i18n.Set(i18n.English) })
}

func TestSystemLocalePicksTheFirstLanguage(t *testing.T) {
	for _, tc := range []struct {
		lang string
		want i18n.Lang
	}{
		{"zh_CN.UTF-8", i18n.Chinese},
		{"zh_TW.UTF-8", i18n.Chinese},
		{"en_US.UTF-8", i18n.English},
		{"de_DE.UTF-8", i18n.English},
		{"C", i18n.English},
		{"C.UTF-8", i18n.English},
		{"POSIX", i18n.English},
		{"", i18n.English},
	} {
		t.Setenv("LANG", tc.lang)
		assert.Equal(t, tc.want, SystemLanguage(), "LANG=%s", tc.lang)
	}
}

func TestFirstStartFollowsTheLocaleThenTheSavedChoice(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	a := test.NewTempApp(t)
	t.Setenv("LANG", "zh_CN.UTF-8")
	w := NewWindow(a)
	assert.Equal(t, i18n.Chinese, i18n.Current(), "zh_CN on a first start is Chinese")
	assert.Equal(t, "Redis", w.appTabs.Items[0].Text)
	w.SetLanguage(i18n.English)
	w.Close()

	w = NewWindow(a)
	defer w.Close()
	assert.Equal(t, i18n.English, i18n.Current(), "the saved choice beats the locale")
}

// Switching the language redraws every word at once, and the run, cursor
// and speed carry over: the tabs are rebuilt around their controllers.
func TestLanguageSwitchRelabelsWithoutLosingTheRun(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	v.toolbar.selectPreset("redis-gc-pause")
	v.ctl.Seek(12_000_000_000)
	v.setSpeed(Speed10)
	w.appTabs.SelectIndex(0)
	ctl := v.ctl
	enMenu := w.MainMenu().Items[0].Label

	inChinese(t, w)
	nv := w.tab("redis")
	require.NotSame(t, v, nv, "the tab is built anew")
	assert.Same(t, ctl, nv.ctl, "around the same controller")
	assert.Equal(t, "redis-gc-pause", nv.ctl.Origin())
	assert.Equal(t, int64(12_000_000_000), int64(nv.ctl.Cursor()))
	assert.Equal(t, Speed10, nv.ctl.Speed())
	assert.Equal(t, "10×", nv.toolbar.speed.Selected, "the speed control shows the kept speed")
	assert.Equal(t, i18n.In(i18n.Chinese, "menu.file"), w.MainMenu().Items[0].Label)
	assert.NotEqual(t, enMenu, w.MainMenu().Items[0].Label)
	assert.Equal(t, 0, w.appTabs.SelectedIndex())

	w.SetLanguage(i18n.English)
	assert.Equal(t, enMenu, w.MainMenu().Items[0].Label)
}

func TestSettingsSurviveARestart(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	a := test.NewTempApp(t)
	w := NewWindow(a)
	v := w.tab("redis")
	v.toolbar.selectPreset("redis-happy-path")
	for _, c := range v.controls.sliders {
		if c.spec.Key == "ttl" {
			c.set(7.5)
		}
	}
	v.controls.toggles["watchdog"].SetChecked(true)
	w.SetTheme(ThemeDark)
	w.SetLanguage(i18n.Chinese)
	last := len(w.tabs) - 1
	w.appTabs.SelectIndex(last)
	w.tabs[last].setSpeed(Speed100) // the speed of the tab on show is kept
	w.Resize(fyne.NewSize(1200, 800))
	w.Close()

	i18n.Set(i18n.English)
	w = NewWindow(a)
	defer w.Close()
	v = w.tab("redis")
	assert.Equal(t, i18n.Chinese, i18n.Current())
	assert.Equal(t, ThemeDark, w.settings.Theme())
	th, ok := a.Settings().Theme().(*Theme)
	require.True(t, ok, "the app runs LockScope's theme")
	assert.Equal(t, ThemeDark, th.Choice)
	assert.Equal(t, last, w.appTabs.SelectedIndex(), "the last tab on show")
	assert.Equal(t, "redis-happy-path", v.ctl.Origin())
	assert.InDelta(t, 7.5, v.ctl.Scenario().TTL.D().Seconds(), 1e-9, "the TTL slider")
	assert.True(t, isOn(v.ctl.Scenario(), "watchdog"), "the watchdog toggle")
	assert.True(t, v.controls.toggles["watchdog"].Checked, "and the control shows it")
	assert.Equal(t, Speed100, v.ctl.Speed())
	assert.Equal(t, fyne.NewSize(1200, 800), w.settings.WindowSize())
}

func TestResetToDefaults(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	a := test.NewTempApp(t)
	w := NewWindow(a)
	defer w.Close()
	v := w.tab("redis")
	v.toolbar.selectPreset("redis-happy-path")
	v.setSpeed(SpeedFastest)
	w.SetTheme(ThemeLight)
	w.SetLanguage(i18n.Chinese)
	w.SaveSettings()

	w.ResetSettings()
	v = w.tab("redis")
	assert.Equal(t, i18n.English, i18n.Current(), "the locale's language (en_US in tests)")
	assert.Equal(t, ThemeSystem, w.settings.Theme())
	assert.Equal(t, ThemeSystem, a.Settings().Theme().(*Theme).Choice)
	assert.Equal(t, v.spec.Preset, v.ctl.Origin())
	assert.Equal(t, SpeedStory, v.ctl.Speed(), "the first preset has captions: the story")
	assert.Equal(t, 0, w.appTabs.SelectedIndex())
	_, saved := w.settings.Language()
	assert.False(t, saved, "no language is kept after a reset")
	_, saved = w.settings.Tab("redis")
	assert.False(t, saved)
}

// appWithSavedTab is a test app whose settings keep a mode's tab: its
// preset, its sliders and its toggles as the settings spell them.
func appWithSavedTab(t *testing.T, mode, preset, sliders, toggles string) fyne.App {
	a := test.NewTempApp(t)
	p := a.Preferences()
	p.SetString(prefPreset+mode, preset)
	p.SetString(prefSliders+mode, sliders)
	p.SetString(prefToggles+mode, toggles)
	return a
}

// A saved state that no longer fits (a preset that is gone, a value out
// of range, a slider the preset has nothing for) never breaks the start.
func TestRestoreToleratesStaleSettings(t *testing.T) {
	a := appWithSavedTab(t, "redis", "redis-no-such-preset", "ttl=9999;pause=3;nonsense;clients=NaN", "watchdog=1;nosuch=1")
	p := a.Preferences()
	p.SetString(prefSpeed, "1e9")
	p.SetString(prefTheme, "purple")
	w := NewWindow(a)
	defer w.Close()
	v := w.tab("redis")
	assert.Equal(t, ThemeSystem, w.settings.Theme())
	assert.Equal(t, SpeedStory, v.ctl.Speed(), "an absurd speed is dropped: the first preset plays as a story")
	assert.InDelta(t, designtab.Sliders["ttl"].Max, v.ctl.Scenario().TTL.D().Seconds(), 1e-9, "clamped to the slider")
	assert.True(t, isOn(v.ctl.Scenario(), "watchdog"))
}

func TestKeysRunTheMenuActions(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	v.toolbar.selectPreset("redis-gc-pause")
	assert.Equal(t, SpeedStory, v.ctl.Speed(), "a preset with captions starts as a story")

	key(w, fyne.KeyRightBracket)
	assert.Equal(t, SpeedPaced, v.ctl.Speed())
	key(w, fyne.KeyRightBracket)
	assert.Equal(t, SpeedReal, v.ctl.Speed())
	assert.Equal(t, SpeedReal.Name(), v.toolbar.speed.Selected, "the control follows the keys")
	key(w, fyne.KeyLeftBracket)
	key(w, fyne.KeyLeftBracket)
	key(w, fyne.KeyLeftBracket)
	assert.Equal(t, SpeedStory, v.ctl.Speed(), "no slower than the story")
	key(w, fyne.KeyBackslash)
	assert.Equal(t, SpeedReal, v.ctl.Speed())

	// N and Shift+N go from moment to moment: the first grant, then back.
	key(w, fyne.KeyN)
	first := v.ctl.Cursor()
	assert.Equal(t, v.ctl.Timeline().Grants[0].At, first, "N: the first grant")
	key(w, fyne.KeyN)
	assert.Greater(t, v.ctl.Cursor(), first)
	w.mods = func() fyne.KeyModifier { return fyne.KeyModifierShift }
	key(w, fyne.KeyN)
	w.mods = nil
	assert.Equal(t, first, v.ctl.Cursor(), "Shift+N: back to it")
	assert.Contains(t, v.status.Text, i18n.T("moment.grant"))

	opts := v.toolbar.presetSlugs
	i := indexOf(opts, "redis-gc-pause")
	key(w, fyne.KeyPageDown)
	assert.Equal(t, opts[(i+1)%len(opts)], v.ctl.Origin())
	key(w, fyne.KeyPageUp)
	key(w, fyne.KeyPageUp)
	assert.Equal(t, opts[(i-1+len(opts))%len(opts)], v.ctl.Origin())

	key(w, fyne.KeyRight)
	assert.Positive(t, v.ctl.Cursor(), "→ steps")
	key(w, fyne.KeyR)
	assert.Zero(t, v.ctl.Cursor(), "R rewinds")
	key(w, fyne.KeyEnd)
	assert.Equal(t, v.ctl.End(), v.ctl.Cursor(), "End goes to the end")
	key(w, fyne.KeyHome)
	assert.Zero(t, v.ctl.Cursor(), "Home goes to the start")

	key(w, fyne.KeyF1)
	require.NotNil(t, w.help)
	assert.True(t, w.help.Visible(), "F1 shows the shortcuts")
	key(w, fyne.KeyEscape)
	assert.False(t, w.help.Visible(), "Esc hides them")
	w.Canvas().OnTypedRune()('?')
	assert.True(t, w.help.Visible(), "? shows them")
	w.Canvas().OnTypedRune()('?')
	assert.False(t, w.help.Visible(), "and hides them")
}

// Every toolbar action has a key and a menu entry, and no key does two
// things.
func TestEveryToolbarActionHasAKeyAndAMenuEntry(t *testing.T) {
	w, _, _, _ := newTestWindow(t)
	byLabel := map[string]*Action{}
	seen := map[string]string{}
	eachAction(w.Menus(), func(a *Action) {
		byLabel[a.Label] = a
		if a.Key == "" {
			return
		}
		k := a.KeysText()
		assert.NotContains(t, seen, k, "%s is bound to %s and %s", k, seen[k], a.Label)
		seen[k] = a.Label
		assert.True(t, i18n.Has(i18n.English, a.Label), "%s has words", a.Label)
	})
	for _, label := range []string{"action.play", "action.step", "action.back", "action.reset",
		"action.faster", "action.slower", "action.nextPreset", "action.prevPreset", "action.nextMoment", "action.prevMoment", "menu.shortcuts", "menu.settings",
		"menu.tradeoff", "menu.eventlog", "menu.open", "menu.save", "menu.exportPNG"} {
		a := byLabel[label]
		if assert.NotNil(t, a, "%s is in the menus", label) {
			assert.NotEmpty(t, a.Key, "%s has a key", label)
		}
	}
	var titles []string
	for _, m := range w.MainMenu().Items {
		titles = append(titles, m.Label)
	}
	assert.Equal(t, []string{"File", "Edit", "View", "Simulation", "Help"}, titles)
}

func TestShortcutOverlayListsEveryKey(t *testing.T) {
	w, _, _, _ := newTestWindow(t)
	w.ToggleShortcuts()
	texts := map[string]bool{}
	for _, o := range test.LaidOutObjects(w.help) {
		if l, ok := o.(*widget.Label); ok {
			texts[l.Text] = true
		}
	}
	for _, k := range []string{"Home", "End", "F1 / ?", "R", "←", "→"} {
		assert.True(t, texts[k], "the overlay lists %s", k)
	}
	eachAction(w.Menus(), func(a *Action) {
		if a.Key != "" {
			assert.True(t, texts[a.KeysText()], "the overlay shows %s", a.KeysText())
			assert.True(t, texts[i18n.T(a.Label)], "the overlay says what %s does", a.KeysText())
		}
	})
}

func TestMenusSwitchLanguageAndTheme(t *testing.T) {
	w, _, _, _ := newTestWindow(t)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	find := func(menu int, label string) *fyne.MenuItem {
		var found *fyne.MenuItem
		var walk func(items []*fyne.MenuItem)
		walk = func(items []*fyne.MenuItem) {
			for _, it := range items {
				if it.Label == label {
					found = it
				}
				if it.ChildMenu != nil {
					walk(it.ChildMenu.Items)
				}
			}
		}
		walk(w.MainMenu().Items[menu].Items)
		require.NotNil(t, found, "menu item %q", label)
		return found
	}
	find(2, "Dark").Action()
	assert.Equal(t, ThemeDark, w.settings.Theme())
	assert.True(t, find(2, "Dark").Checked)
	assert.False(t, find(2, "Light").Checked)
	assert.Equal(t, theme.VariantDark, a(w).Settings().Theme().(*Theme).Variant(theme.VariantLight))

	find(2, "简体中文").Action()
	assert.Equal(t, i18n.Chinese, i18n.Current())
	assert.Equal(t, "视图", w.MainMenu().Items[2].Label)
}

func a(w *Window) fyne.App { return w.app }

// Fyne's lang knows LockScope's words too, in the system's language, and
// registering them does not hide Fyne's own: the Chinese joins Fyne's
// zh-Hans instead of making a "zh" that Fyne would never look in.
func TestTranslationsReachFyneLang(t *testing.T) {
	registerTranslations()
	relocate := func() { // Fyne reads the locale again whenever words are added
		require.NoError(t, lang.AddTranslationsForLocale([]byte("{}"), "en"))
	}
	t.Setenv("LANG", "zh_CN.UTF-8")
	relocate()
	assert.Equal(t, i18n.In(i18n.Chinese, "menu.settings"), lang.X("menu.settings", "?"))
	assert.Equal(t, "取消", lang.L("Cancel"), "Fyne's own Chinese is still found")
	t.Setenv("LANG", "en_US.UTF-8")
	relocate()
	assert.Equal(t, i18n.In(i18n.English, "menu.settings"), lang.X("menu.settings", "?"))
	assert.Equal(t, "Cancel", lang.L("Cancel"))
}

func TestSettingsDialogOffersLanguageThemeAndReset(t *testing.T) {
	w, _, _, _ := newTestWindow(t)
	w.ShowSettings()
	var selects, buttons []string
	for _, o := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
		switch x := o.(type) {
		case *widgets.TipSelect:
			selects = append(selects, x.Selected)
		case *widgets.TipButton:
			buttons = append(buttons, x.Text)
		case *widget.Button:
			buttons = append(buttons, x.Text)
		}
	}
	assert.Equal(t, []string{"English", "System"}, selects)
	assert.Contains(t, buttons, "Reset to defaults")
	assert.Contains(t, buttons, "Close")
}

// In Chinese the tab speaks Chinese: the toolbar, the status line with the
// preset's Chinese name, the preset's Chinese caption, the sliders' names
// and tips, the panels; and back in English every word is English again.
func TestChineseTabSpeaksChinese(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	v.toolbar.selectPreset("redis-gc-pause")
	v.ctl.Seek(12_000_000_000)
	inChinese(t, w)
	v = w.tab("redis")
	v.show()
	assert.Equal(t, "播放", v.toolbar.play.Text)
	assert.Contains(t, v.status.Text, "GC 停顿超过了租约")
	cp, ok := v.ctl.Caption()
	require.True(t, ok)
	require.NotEmpty(t, cp.Zh)
	assert.Equal(t, cp.Zh, v.pics.Caption.Segments[2].(*widget.TextSegment).Text)
	for _, c := range v.controls.sliders {
		assert.Equal(t, i18n.In(i18n.Chinese, c.spec.NameKey()), c.spec.Name())
	}
	assert.Equal(t, i18n.In(i18n.Chinese, "slider.ttl.tip"), designtab.Sliders["ttl"].Help())
	assert.Equal(t, i18n.In(i18n.Chinese, "slider.redisTTL.tip"), v.spec.Slider("ttl").Help(), "the Redis tab's TTL in its own words")
	texts := shownTexts(w.Canvas().Content())
	assert.Contains(t, texts, i18n.In(i18n.Chinese, "panel.cluster"))
	assert.Contains(t, texts, i18n.In(i18n.Chinese, "metrics.acquisitions"))

	assert.Equal(t, "GC 停顿超过了租约  ·  redis-gc-pause", v.toolbar.presets.Selected, "the picker shows the title, then the file name")
	assert.Equal(t, "回到开始", v.toolbar.reset.Text)

	w.SetLanguage(i18n.English)
	v = w.tab("redis")
	v.show()
	assert.Equal(t, "Play", v.toolbar.play.Text)
	assert.Equal(t, "GC pause outlives the lease  ·  redis-gc-pause", v.toolbar.presets.Selected)
	assert.Equal(t, "Rewind", v.toolbar.reset.Text, "the button says what it does")
	for i, slug := range v.toolbar.presetSlugs {
		assert.Equal(t, i18n.T("preset."+slug)+"  ·  "+slug, v.toolbar.presets.Options[i])
	}
	assert.Contains(t, v.status.Text, "GC pause outlives the lease")
	assert.Equal(t, cp.Text, v.pics.Caption.Segments[2].(*widget.TextSegment).Text)
}

// The errors LockScope knows by value read in the current language; the
// English is the simulator's own.
func TestErrorText(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	assert.Equal(t, "x: "+redlock.ErrFencing.Error(), widgets.ErrorText(fmt.Errorf("x: %w", redlock.ErrFencing)), "the wrapping stays, as for any field")
	i18n.Set(i18n.Chinese)
	assert.Contains(t, widgets.ErrorText(redlock.ErrFencing), "没有 fencing 令牌")
	assert.Equal(t, "faults[2].at: bad", widgets.ErrorText(errors.New("faults[2].at: bad")))
}

// M shows the tab's trade-off map and E the event log, as their buttons do.
func TestKeysForTheMapAndTheLog(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	require.False(t, v.tradeoff.shown)
	key(w, fyne.KeyM)
	assert.True(t, v.tradeoff.shown, "M shows the map")
	key(w, fyne.KeyM)
	assert.False(t, v.tradeoff.shown, "and M again the run")
	v.tradeoff.runner.stop() // the sweep the map started is not this test's business
	was := EventLogShown()
	key(w, fyne.KeyE)
	assert.Equal(t, !was, EventLogShown(), "E switches the event log")
	key(w, fyne.KeyE)
	assert.Equal(t, was, EventLogShown())
}

// The About box shows the version main set (from FyneApp.toml), not Fyne's
// 0.0.1 of an unpackaged binary.
func TestAboutShowsTheProgramVersion(t *testing.T) {
	a := test.NewTempApp(t)
	old := Version
	Version = "1.2.3"
	t.Cleanup(func() { Version = old })
	w := NewWindow(a)
	defer w.Close()
	w.showAbout()
	top := w.Canvas().Overlays().Top()
	require.NotNil(t, top)
	var texts []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Label:
			texts = append(texts, x.Text)
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c)
			}
		}
	}
	walk(top)
	shown := strings.Join(texts, "\n")
	assert.Contains(t, shown, i18n.F("about.version", "version", "1.2.3"))
	for _, tab := range designtab.Tabs() {
		assert.Contains(t, shown, tab.Title, "the About box names every design")
	}
}
