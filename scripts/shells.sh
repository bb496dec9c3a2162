#!/usr/bin/env bash
# Installs zsh and fish from Debian's packages when they are missing, so
# cli/completion_test.go can check the completion scripts with zsh -n and
# fish --no-execute. Needs root (or sudo without a password) and apt-get;
# exits non-zero, saying why, when it cannot install them.
set -euo pipefail
missing=()
for sh in zsh fish; do
	command -v "$sh" >/dev/null 2>&1 || missing+=("$sh")
done
[ ${#missing[@]} -eq 0 ] && exit 0
command -v apt-get >/dev/null 2>&1 || { echo "shells.sh: no apt-get to install ${missing[*]}" >&2; exit 1; }
sudo=""
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
		echo "shells.sh: not root and no passwordless sudo: cannot install ${missing[*]}" >&2; exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 ||
	{ $sudo apt-get update -qq >/dev/null 2>&1 && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null; }
