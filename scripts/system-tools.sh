#!/usr/bin/env bash
# Installs the programs patterm's tests drive, when missing, on a Debian machine (as root, with
# apt-get); elsewhere it names what is missing. Run by scripts/bootstrap.sh.
# tmux drives the TUI tests and is the conformance suite's reference; vim, less, top, htop, man,
# python3 and git are the real programs the tests run; bash and zsh are the shells shell panes
# integrate with, both tested.
set -euo pipefail

log() { printf 'bootstrap: %s\n' "$*" >&2; }

missing=()
for tool in tmux vim less top script htop man python3 git zsh; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing ${missing[*]} with apt-get"
    pkgs=()
    for tool in "${missing[@]}"; do
      case "$tool" in top) pkgs+=(procps) ;; script) pkgs+=(bsdutils) ;; man) pkgs+=(man-db) ;; *) pkgs+=("$tool") ;; esac
    done
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}") >/dev/null 2>&1 \
      || log "apt-get could not install ${pkgs[*]}; the tests that need them will fail"
  else
    log "missing ${missing[*]}; install them for the full test suite"
  fi
fi
