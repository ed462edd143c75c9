# LockScope build. GNU make; every recipe line is POSIX sh.
#
#   make run     install missing system packages, build, open the window
#   make test    install missing system packages, go vet, go test -race
#   make bench   simulator benchmarks
#   make build   build ./lockscope
#   make deps    install the C toolchain and headers Fyne needs
#   make clean   remove what the build made

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

.PHONY: all deps build run test bench clean

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

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BINARY) ./cmd/lockscope

run: deps build
	@case "$${LANG:-C}" in C|C.*|POSIX) LANG=en_US.UTF-8; export LANG;; esac; ./$(BINARY)

test: deps
	$(GO) vet ./...
	$(GO) test -race ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./sim/...

clean:
	rm -f $(BINARY) $(BINARY).exe
