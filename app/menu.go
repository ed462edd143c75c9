package app

import (
	"runtime"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/lockscope/lockscope/assets/i18n"
)

// Action is one thing a person can do from the menu bar and the keyboard.
// The menus, the keyboard handler and the shortcut overlay are all built
// from the same list, so none can fall out of step with another.
type Action struct {
	Label string           // i18n key of the menu label and the overlay line
	Key   fyne.KeyName     // the key; "" for an action with a menu entry only
	Mod   fyne.KeyModifier // 0 for a plain key, which the window handles itself
	Rune  rune             // a second, typed key that does the same ('?'); 0 for none
	Do    func()
	// Checked reports whether a choice is the current one (language,
	// theme); nil for a plain action.
	Checked func() bool
	// Text, when set, is the menu entry's words, made when the menu is
	// (Undo names the edit it takes back); the overlay keeps Label's.
	Text func() string
	// Disabled, when set, reports that the action has nothing to do now;
	// its menu entry is greyed.
	Disabled func() bool
}

// MenuGroup is one menu of the menu bar, its actions in order; a nil
// action is a separator, and a group with a Sub title becomes a submenu.
type MenuGroup struct {
	Title   string // i18n key
	Actions []*Action
	Subs    []MenuGroup // submenus, after the actions
}

// menuItem makes the menu entry of an action.
func (a *Action) menuItem() *fyne.MenuItem {
	if a == nil {
		return fyne.NewMenuItemSeparator()
	}
	it := fyne.NewMenuItem(i18n.T(a.Label), a.Do)
	if a.Key != "" {
		it.Shortcut = menuShortcut(a.Key, a.Mod)
	}
	if a.Checked != nil {
		it.Checked = a.Checked()
	}
	if a.Text != nil {
		it.Label = a.Text()
	}
	if a.Disabled != nil {
		it.Disabled = a.Disabled()
	}
	return it
}

// menuShortcut is the shortcut a menu entry answers to. The desktop
// driver turns Ctrl+Z and Ctrl+Y into fyne.ShortcutUndo and ShortcutRedo
// before it looks at the menus (fyne internal/driver/glfw/window.go,
// triggersShortcut), so an entry on those keys must carry those, or it
// would never fire.
func menuShortcut(k fyne.KeyName, mod fyne.KeyModifier) fyne.Shortcut {
	if mod == fyne.KeyModifierShortcutDefault {
		switch k {
		case fyne.KeyZ:
			return &fyne.ShortcutUndo{}
		case fyne.KeyY:
			return &fyne.ShortcutRedo{}
		}
	}
	return &desktop.CustomShortcut{KeyName: k, Modifier: mod}
}

// mainMenu builds the menu bar from the groups.
func mainMenu(groups []MenuGroup) *fyne.MainMenu {
	var menus []*fyne.Menu
	for _, g := range groups {
		menus = append(menus, g.menu())
	}
	return fyne.NewMainMenu(menus...)
}

func (g MenuGroup) menu() *fyne.Menu {
	var items []*fyne.MenuItem
	for _, a := range g.Actions {
		items = append(items, a.menuItem())
	}
	for _, s := range g.Subs {
		it := fyne.NewMenuItem(i18n.T(s.Title), nil)
		it.ChildMenu = s.menu()
		items = append(items, it)
	}
	return fyne.NewMenu(i18n.T(g.Title), items...)
}

// KeysText writes an action's keys the way the overlay and the tips show
// them: "Space", "→", "Ctrl+1" (⌘ on a Mac), "F1 / ?".
func (a *Action) KeysText() string {
	if a.Key == "" {
		return ""
	}
	var parts []string
	if a.Mod&fyne.KeyModifierShortcutDefault != 0 {
		if runtime.GOOS == "darwin" {
			parts = append(parts, "⌘")
		} else {
			parts = append(parts, i18n.T("key.ctrl"))
		}
	}
	if a.Mod&fyne.KeyModifierShift != 0 {
		parts = append(parts, i18n.T("key.shift"))
	}
	parts = append(parts, keyName(a.Key))
	s := strings.Join(parts, "+")
	if a.Rune != 0 {
		s += " / " + string(a.Rune)
	}
	return s
}

// keyName is how a key is written on a keyboard.
func keyName(k fyne.KeyName) string {
	switch k {
	case fyne.KeySpace:
		return i18n.T("key.space")
	case fyne.KeyLeft:
		return "←"
	case fyne.KeyRight:
		return "→"
	case fyne.KeyUp:
		return "↑"
	case fyne.KeyDown:
		return "↓"
	case fyne.KeyEscape:
		return "Esc"
	}
	return string(k)
}

// plainKey finds the action of a key pressed without a modifier (the menu
// bar handles the others).
func plainKey(groups []MenuGroup, k fyne.KeyName) *Action {
	var found *Action
	eachAction(groups, func(a *Action) {
		if found == nil && a.Key == k && a.Mod == 0 {
			found = a
		}
	})
	return found
}

// shiftedKey finds the action of a key pressed with Shift alone.
func shiftedKey(groups []MenuGroup, k fyne.KeyName) *Action {
	var found *Action
	eachAction(groups, func(a *Action) {
		if found == nil && a.Key == k && a.Mod == fyne.KeyModifierShift {
			found = a
		}
	})
	return found
}

// typedRune finds the action of a typed character such as '?'.
func typedRune(groups []MenuGroup, r rune) *Action {
	var found *Action
	eachAction(groups, func(a *Action) {
		if found == nil && a.Rune != 0 && a.Rune == r {
			found = a
		}
	})
	return found
}

// eachAction visits every action of the groups and their submenus.
func eachAction(groups []MenuGroup, f func(*Action)) {
	for _, g := range groups {
		for _, a := range g.Actions {
			if a != nil {
				f(a)
			}
		}
		eachAction(g.Subs, f)
	}
}
