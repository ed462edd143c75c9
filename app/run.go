// Package app is the LockScope window: a tab per lock design with its
// controls, the pictures from package widgets, and a Controller per tab
// that holds the scenario, its recording and the cursor.
package app

import (
	fyneapp "fyne.io/fyne/v2/app"
)

// AppID identifies LockScope to Fyne (preferences, desktop entry).
const AppID = "io.github.lockscope"

// Run opens the LockScope window and blocks until it is closed.
func Run() {
	a := fyneapp.NewWithID(AppID)
	w := NewWindow(a)
	w.RestoreSession()
	w.ShowAndRun()
}
