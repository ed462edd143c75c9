// Package app is the LockScope window: a tab per lock design with its
// controls, the pictures from package widgets, and a Controller per tab
// that holds the scenario, its recording and the cursor.
package app

import (
	fyneapp "fyne.io/fyne/v2/app"
)

// AppID identifies LockScope to Fyne (preferences, desktop entry).
const AppID = "io.github.lockscope"

// Version is the program's version, set by main from FyneApp.toml (through
// -ldflags) before the window opens; the About box shows it. Fyne's own
// metadata says 0.0.1 when the binary was not packaged.
var Version = ""

// Run opens the LockScope window and blocks until it is closed.
func Run() {
	a := fyneapp.NewWithID(AppID)
	w := NewWindow(a)
	w.screen = screenArea
	w.RestoreSession()
	w.FitScreen()
	// The canvas knows its scale once the window is on a screen: fit again.
	// A first start opens the guided tour over it.
	a.Lifecycle().SetOnStarted(func() {
		w.FitScreen()
		w.ShowTourOnFirstStart()
	})
	w.ShowAndRun()
}
