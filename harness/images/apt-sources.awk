# SPDX-License-Identifier: GPL-2.0
#
# Usage: awk -f harness/images/apt-sources.awk SOURCES...   (settings.sh's lwnfs_apt_sources)
#
# apt's source files, one-line (*.list) or deb822 (*.sources), in apt's
# order: "URI SUITE SIGNED-BY COMPONENT..." for each binary source that is
# enabled; SIGNED-BY is "-" when not given, "inline" for a key written in
# the entry.

# flush: the deb822 paragraph read so far, one line per URI and suite.
function flush(  u, s, i, j, nu, ns) {
	if (types ~ /(^| )deb( |$)/ && tolower(enabled) != "no") {
		nu = split(uris, u, " ")
		ns = split(suites, s, " ")
		for (i = 1; i <= nu; i++)
			for (j = 1; j <= ns; j++)
				print u[i], s[j], signed == "" ? "-" : signed, comps
	}
	types = uris = suites = comps = signed = enabled = ""
}
FNR == 1 { flush(); deb822 = FILENAME ~ /\.sources$/ }
# One-line style: deb [OPTION=VALUE ...] URI SUITE COMPONENT...
!deb822 {
	sub(/#.*/, "")
	if ($1 != "deb")
		next
	opts = ""
	i = 2
	if ($2 ~ /^\[/) {
		while (i < NF && $i !~ /\]$/)
			opts = opts " " $(i++)
		opts = opts " " $(i++)
	}
	signed = "-"
	if (match(opts, /signed-by=[^] ]*/))
		signed = substr(opts, RSTART + 10, RLENGTH - 10)
	line = $i " " $(i + 1) " " signed
	for (j = i + 2; j <= NF; j++)
		line = line " " $j
	print line
	signed = ""
	next
}
# deb822: paragraphs of "Field: value", continued on indented lines.
/^#/ { next }
/^[ \t]*$/ { flush(); next }
{
	if (/^[ \t]/) {
		value = value " " $0
	} else {
		field = tolower(substr($0, 1, index($0, ":") - 1))
		value = substr($0, index($0, ":") + 1)
	}
	gsub(/[ \t]+/, " ", value)
	gsub(/^ | $/, "", value)
	if (field == "types") types = value
	else if (field == "uris") uris = value
	else if (field == "suites") suites = value
	else if (field == "components") comps = value
	else if (field == "enabled") enabled = value
	else if (field == "signed-by" && signed == "") signed = value == "" ? "inline" : value
}
END { flush() }
