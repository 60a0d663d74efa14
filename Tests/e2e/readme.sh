#!/usr/bin/env bash
# Runs the README's shell blocks as written, top to bottom, in one shell, from the repository
# root (what a new user pastes must work), and checks that each output the README shows is
# what its commands print. The README's first block builds the tools and puts them on PATH.
# How blocks are marked (skipped, outputs, transcripts): Tests/e2e/lib/markdown_blocks.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec bash Tests/e2e/lib/run-pages.sh README.md
