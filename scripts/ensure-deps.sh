#!/usr/bin/env bash
# Installs the system packages Motus builds against (OpenBLAS, LAPACKE, zlib, pkg-config) when
# they are missing. Sourced by scripts/demo.sh, scripts/test.sh and .ci/run.
set -euo pipefail

need=()
for pkg in libopenblas-dev liblapacke-dev zlib1g-dev pkg-config; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if ((${#need[@]})); then
  echo "motus: installing ${need[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi
command -v swift >/dev/null || { echo "motus: 'swift' is not on PATH (Swift 6 toolchain needed)" >&2; exit 1; }
# OpenBLAS picks its kernels by processor, and kernels sum in different orders: pin the AVX2
# ones (MotusBLAS's BLASKernels; motus itself does the same) so tests see the model bytes every
# x86-64 machine makes. A value already set is kept.
if [ -z "${OPENBLAS_CORETYPE:-}" ] && [ "$(uname -m)" = x86_64 ] \
  && grep -m1 '^flags' /proc/cpuinfo | grep -qw avx2 && grep -m1 '^flags' /proc/cpuinfo | grep -qw fma; then
  export OPENBLAS_CORETYPE=Haswell
fi
