# LockScope build. GNU make; every recipe line is POSIX sh.
#
#   make run     install missing system packages, build, open the window
#   make test    install missing system packages, go vet, go test -race
#   make bench   simulator benchmarks
#   make screenshots  redraw the README's pictures with lockscope shot
#   make build   install missing system packages, build ./lockscope
#   make deps    install the C toolchain and headers Fyne needs
#   make clean   remove what the build made
#
#   make package        on Linux: the Linux tarball and the Windows zip in dist/
#   make package-check  unpack those and run the packaged programs, the Windows
#                       one under Wine (slow; not in test)
#   (package-linux, package-windows, package-darwin: one platform each; see below)

GO ?= go
BINARY := lockscope

# The version lives in FyneApp.toml only; the binary gets it through -X.
VERSION := $(shell sed -n 's/^[[:space:]]*Version[[:space:]]*=[[:space:]]*"\(.*\)".*/\1/p' FyneApp.toml)
ifeq ($(VERSION),)
$(error FyneApp.toml has no Version in [Details])
endif
LDFLAGS := -X main.version=$(VERSION)

# Fyne's OpenGL driver is cgo: it needs a C compiler and the GL/X11/Wayland
# headers. These are the Debian/Ubuntu package names.
DEBIAN_PACKAGES := gcc libgl1-mesa-dev xorg-dev libwayland-dev libxkbcommon-dev

export CGO_ENABLED := 1

.PHONY: all deps build run test bench clean screenshots

all: build

deps:
	@command -v $(GO) >/dev/null 2>&1 || { \
	  echo "deps: Go is not installed: install Go 1.26 or later (https://go.dev/dl/)" >&2; exit 1; }
	@if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then \
	  missing=""; \
	  for p in $(DEBIAN_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' "$$p" 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	  done; \
	  if [ -n "$$missing" ]; then \
	    sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo"; \
	    echo "deps: installing$$missing"; \
	    $$sudo apt-get update && \
	    $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	  fi; \
	else \
	  case "$$(uname -s)" in \
	  Darwin) \
	    xcode-select -p >/dev/null 2>&1 || { \
	      echo "deps: Fyne needs the Xcode command line tools: run 'xcode-select --install'" >&2; exit 1; } ;; \
	  MINGW*|MSYS*|CYGWIN*) \
	    command -v gcc >/dev/null 2>&1 || { \
	      echo "deps: Fyne needs a C compiler on Windows: install MSYS2 and 'pacman -S mingw-w64-x86_64-gcc'" >&2; exit 1; } ;; \
	  *) \
	    echo "deps: not Debian/Ubuntu, so nothing is installed; Fyne needs a C compiler and the development"; \
	    echo "deps: headers of OpenGL, X11 (Xcursor, Xrandr, Xinerama, Xi, Xxf86vm), Wayland and xkbcommon."; \
	    printf '#include <GL/gl.h>\n#include <X11/Xlib.h>\n#include <X11/Xcursor/Xcursor.h>\n#include <X11/extensions/Xrandr.h>\n#include <X11/extensions/Xinerama.h>\n#include <X11/extensions/XInput2.h>\n#include <X11/extensions/xf86vmode.h>\nint main(void){return 0;}\n' \
	      | $${CC:-cc} -I/usr/local/include -I/usr/X11R6/include -x c -o /dev/null - >/dev/null 2>&1 || { \
	      echo "deps: they are missing. Fedora: gcc mesa-libGL-devel libXcursor-devel libXrandr-devel" >&2; \
	      echo "deps: libXinerama-devel libXi-devel libXxf86vm-devel wayland-devel libxkbcommon-devel;" >&2; \
	      echo "deps: Arch: gcc mesa libxcursor libxrandr libxinerama libxi libxxf86vm wayland libxkbcommon." >&2; \
	      exit 1; }; \
	    echo "deps: found them, carrying on." ;; \
	  esac; \
	fi

build: deps
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BINARY) ./cmd/lockscope

run: build
	@case "$${LANG:-C}" in C|C.*|POSIX) LANG=en_US.UTF-8; export LANG;; esac; ./$(BINARY)

test: deps
	$(GO) vet ./...
	$(GO) test -race ./...
	bash sim/conformance/run.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./sim/...

# The README's pictures, one per mode, drawn by the program itself
# (lockscope shot: Fyne's software renderer, no display needed) at the
# instant each preset is about.
SCREENSHOTS := assets/screenshots
SHOT = ./$(BINARY) shot --size 1400x900 --scale 2

screenshots: build
	mkdir -p $(SCREENSHOTS)
	$(SHOT) redis-gc-pause --at 12s --out $(SCREENSHOTS)/redis-gc-pause.png
	$(SHOT) redlock-clock-jump --at 3s --out $(SCREENSHOTS)/redlock-clock-jump.png
	$(SHOT) zk-happy-path --at 600ms --out $(SCREENSHOTS)/zk-happy-path.png
	$(SHOT) etcd-lease-expiry --at 3s --out $(SCREENSHOTS)/etcd-lease-expiry.png
	$(SHOT) k8s-paused-leader --at 33s --out $(SCREENSHOTS)/k8s-paused-leader.png
	$(SHOT) dynamodb-paused-holder --at 35500ms --out $(SCREENSHOTS)/dynamodb-paused-holder.png

clean:
	rm -f $(BINARY) $(BINARY).exe
	rm -rf $(DIST)

# Packaging.
#
# The fyne command of fyne.io/tools (pinned here, installed into ./bin) makes
# the artefacts in dist/ from the metadata of the top-level FyneApp.toml. It
# runs through .ci/fyne-package, on a staged copy of the source: fyne package
# wants FyneApp.toml next to the main package and bumps Build in it on every
# run, and the working tree must stay clean (the script says more).
#
#   make package-linux    dist/LockScope-<version>-linux-<arch>.tar.xz: the
#                         binary, the desktop file and the icon under usr/,
#                         with Fyne's Makefile (make install / user-install)
#   make package-windows  dist/LockScope-<version>-windows-amd64.zip: LockScope.exe,
#                         a GUI-subsystem exe with the icon and version info;
#                         cross-compiled with mingw-w64 on Linux, native on MSYS2
#   make package-darwin   dist/LockScope-<version>-macos-universal.zip, on macOS:
#                         LockScope.app, one binary for arm64 and amd64 (lipo)
#   make package          on Linux: package-linux and package-windows
#   make package-check    unpack the Linux and Windows artefacts, install the
#                         tarball into a temporary root, run it, and run
#                         LockScope.exe under Wine, its window on Xvfb
#                         (.ci/package-check)

FYNE_VERSION := v1.7.4
FYNE := $(CURDIR)/bin/fyne-$(FYNE_VERSION)/fyne$(shell $(GO) env GOEXE 2>/dev/null)
# --release: no debug information, -trimpath, Fyne's release build tag.
PACKAGE_FLAGS := --release

APP_NAME := $(shell sed -n 's/^[[:space:]]*Name[[:space:]]*=[[:space:]]*"\(.*\)".*/\1/p' FyneApp.toml)
DIST := dist
LINUX_ARCH := $(shell $(GO) env GOARCH 2>/dev/null)
LINUX_TARBALL := $(DIST)/$(APP_NAME)-$(VERSION)-linux-$(LINUX_ARCH).tar.xz
WINDOWS_ZIP := $(DIST)/$(APP_NAME)-$(VERSION)-windows-amd64.zip
DARWIN_ZIP := $(DIST)/$(APP_NAME)-$(VERSION)-macos-universal.zip
# An artefact is rebuilt when a file that goes into the binary changes.
PACKAGE_SOURCES := FyneApp.toml go.mod go.sum \
	$(shell find app assets cmd sim widgets -type f ! -name '*_test.go' 2>/dev/null)

HOST_OS := $(shell uname -s 2>/dev/null)
ifneq ($(filter MINGW% MSYS% CYGWIN%,$(HOST_OS)),)
# Native on Windows: MSYS2's mingw-w64 gcc is the CC that `make deps` checks
# (named, so that fyne package recognises it and picks its C flags for it).
WINDOWS_ENV := GOARCH=amd64 CC=gcc
WINDOWS_DEBIAN_PACKAGES :=
MINGW_CC :=
else
# Cross-compiled: Fyne's GLFW driver is cgo, so it needs a C compiler for Windows.
MINGW_CC := x86_64-w64-mingw32-gcc
WINDOWS_ENV := GOARCH=amd64 CC=$(MINGW_CC)
WINDOWS_DEBIAN_PACKAGES := gcc-mingw-w64-x86-64 zip
endif

.PHONY: package package-linux package-windows package-darwin package-check

ifeq ($(HOST_OS),Linux)
package: $(LINUX_TARBALL) $(WINDOWS_ZIP)
	@ls -l $^
else
package:
	@echo "package: makes the Linux and Windows artefacts on Linux; here, run" \
	  "'make package-darwin' (macOS) or 'make package-windows' (Windows, MSYS2)" >&2; exit 1
endif

package-linux: $(LINUX_TARBALL)
package-windows: $(WINDOWS_ZIP)
package-darwin: $(DARWIN_ZIP)

$(FYNE):
	GOBIN='$(dir $(FYNE))' $(GO) install fyne.io/tools/cmd/fyne@$(FYNE_VERSION)

$(LINUX_TARBALL): $(PACKAGE_SOURCES) | $(FYNE)
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES='$(DEBIAN_PACKAGES) xz-utils'
	rm -rf $(DIST)/linux
	FYNE='$(FYNE)' GO='$(GO)' .ci/fyne-package linux $(DIST)/linux $(PACKAGE_FLAGS)
	mv $(DIST)/linux/$(APP_NAME).tar.xz $@
	rm -rf $(DIST)/linux

$(WINDOWS_ZIP): $(PACKAGE_SOURCES) | $(FYNE)
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES='$(WINDOWS_DEBIAN_PACKAGES)'
	@if [ -n '$(MINGW_CC)' ] && ! command -v '$(MINGW_CC)' >/dev/null 2>&1; then \
	  echo "package-windows: $(MINGW_CC) is missing: install mingw-w64 (Debian: gcc-mingw-w64-x86-64," >&2; \
	  echo "package-windows: Fedora: mingw64-gcc, Arch: mingw-w64-gcc)" >&2; exit 1; fi
	@command -v zip >/dev/null 2>&1 || { echo "package-windows: zip is missing: install it" >&2; exit 1; }
	rm -rf $(DIST)/windows
	$(WINDOWS_ENV) FYNE='$(FYNE)' GO='$(GO)' .ci/fyne-package windows $(DIST)/windows $(PACKAGE_FLAGS)
	rm -f $@
	cd $(DIST)/windows && zip -q -9 -X ../$(notdir $@) $(APP_NAME).exe
	rm -rf $(DIST)/windows

# Two builds, one per architecture (cgo cross-compiles between the two on a
# Mac), joined by lipo into one binary; the bundle is then signed ad hoc, as
# the Go linker signs a plain arm64 binary, and zipped with ditto, which
# keeps what a Finder copy keeps.
$(DARWIN_ZIP): $(PACKAGE_SOURCES) | $(FYNE)
	@$(MAKE) --no-print-directory deps
	rm -rf $(DIST)/darwin-arm64 $(DIST)/darwin-amd64
	GOARCH=arm64 FYNE='$(FYNE)' GO='$(GO)' .ci/fyne-package darwin $(DIST)/darwin-arm64 $(PACKAGE_FLAGS)
	GOARCH=amd64 FYNE='$(FYNE)' GO='$(GO)' .ci/fyne-package darwin $(DIST)/darwin-amd64 $(PACKAGE_FLAGS)
	lipo -create -output $(DIST)/$(BINARY)-universal \
	  $(DIST)/darwin-arm64/$(APP_NAME).app/Contents/MacOS/$(BINARY) \
	  $(DIST)/darwin-amd64/$(APP_NAME).app/Contents/MacOS/$(BINARY)
	mv $(DIST)/$(BINARY)-universal $(DIST)/darwin-arm64/$(APP_NAME).app/Contents/MacOS/$(BINARY)
	lipo -verify_arch arm64 x86_64 $(DIST)/darwin-arm64/$(APP_NAME).app/Contents/MacOS/$(BINARY)
	codesign --force --sign - $(DIST)/darwin-arm64/$(APP_NAME).app
	rm -f $@
	ditto -c -k --sequesterRsrc --keepParent $(DIST)/darwin-arm64/$(APP_NAME).app $@
	rm -rf $(DIST)/darwin-arm64 $(DIST)/darwin-amd64

# On Linux the check also runs LockScope.exe under Wine, on an Xvfb display
# (.ci/package-check, run_under_wine): Wine, the mingw-w64 C compiler for its
# bcryptprimitives.dll stand-in, Xvfb, xdotool and ImageMagick for the picture.
WINE_DEBIAN_PACKAGES := wine wine64 gcc-mingw-w64-x86-64 xvfb xdotool imagemagick

package-check: $(LINUX_TARBALL) $(WINDOWS_ZIP)
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES='file unzip xz-utils binutils make $(WINE_DEBIAN_PACKAGES)'
	.ci/package-check $(LINUX_TARBALL) $(WINDOWS_ZIP)
