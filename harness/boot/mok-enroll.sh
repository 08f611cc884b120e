#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/boot/mok-enroll.sh VARS CERT
#
# Enroll the certificate CERT (DER or PEM) in shim's MokList in the OVMF
# variable store VARS, as MokManager does after "mokutil --import", with
# virt-fw-vars --add-mok: trixie's python3-virt-firmware (bookworm has
# none), in a trixie root made once under $LWNFS_CACHE/tools.
set -euo pipefail

usage='usage: mok-enroll.sh VARS CERT'
vars=${1:?$usage} cert=${2:?$usage}
# shellcheck source=harness/settings.sh
. "$(dirname "$0")/../settings.sh"
[ -w "$vars" ] || { echo "mok-enroll: cannot write $vars" >&2; exit 1; }
[ -r "$cert" ] || { echo "mok-enroll: cannot read $cert" >&2; exit 1; }
# The owner mokutil --import gives a key: shim's own GUID.
shim_guid=605dab50-e046-4300-abb6-3dd810dd8b23

tools=$LWNFS_CACHE/tools
root=$tools/virt-firmware
record="trixie python3-virt-firmware"
mkdir -p "$tools"
exec 9>"$root.lock"
flock 9
if [ "$(cat "$root/.lwnfs-packages" 2>/dev/null)" != "$record" ]; then
	command -v mmdebstrap >/dev/null || {
		echo "mok-enroll: mmdebstrap is missing (run harness/deps.sh)" >&2
		exit 1
	}
	echo "mok-enroll: making a trixie root for virt-fw-vars in $root (about a minute)" >&2
	rm -rf --one-file-system "$root.new"
	mmdebstrap --quiet --variant=apt --include=python3-virt-firmware trixie "$root.new" >&2
	echo "$record" >"$root.new/.lwnfs-packages"
	rm -rf --one-file-system "$root"
	mv "$root.new" "$root"
fi

# The chroot sees only its root: the store and CERT (PEM, for --add-mok) go in.
work=$(mktemp -d "$root/tmp/mok-enroll.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$vars" "$work/vars.fd"
if ! openssl x509 -inform DER -in "$cert" -out "$work/cert.pem" 2>/dev/null &&
	! openssl x509 -inform PEM -in "$cert" -out "$work/cert.pem"; then
	echo "mok-enroll: $cert is no X.509 certificate" >&2
	exit 1
fi
inside=/${work#"$root"/}
lwnfs_in_root "$root" virt-fw-vars --loglevel warning --inplace "$inside/vars.fd" --add-mok "$shim_guid" "$inside/cert.pem" >&2
subject=$(openssl x509 -in "$work/cert.pem" -noout -subject -nameopt multiline |
	sed -n 's/^ *commonName *= *//p')
if ! lwnfs_in_root "$root" virt-fw-vars -i "$inside/vars.fd" --print --verbose 2>/dev/null |
	awk -v want="subject CN=$subject" '/^name=/ { in_mok = $1 == "name=MokList" }
		in_mok && $0 ~ /^ *subject / { sub(/^ */, ""); found = found || $0 == want }
		END { exit !found }'; then
	echo "mok-enroll: virt-fw-vars did not put '$subject' into MokList of $vars" >&2
	exit 1
fi
cp "$work/vars.fd" "$vars"
echo "mok-enroll: '$subject' enrolled in MokList of $vars" >&2
