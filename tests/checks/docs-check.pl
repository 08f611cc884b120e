#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/checks/docs-check.pl
#
# Are the docs (README.md, lwnfs.5, docs/*.md) still true to the tree?
# Each part below says what of them it checks.
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Find qw(find);
use File::Spec;

# C names the docs give that lwnfs's code does not contain.
my %NAMES = (
	# The LWN article's code, which the walkthrough shows beside lwnfs's.
	'lfs_*' => "the 2002 article's own functions",
	get_sb_single => "2002: the mount helper get_tree_single() replaced",
	mount_single => "2.6.37 to 6.x: between get_sb_single() and get_tree_single()",
	d_alloc_root => "2002: the root's dentry, before d_make_root()",
	d_make_root => "called for lwnfs inside simple_fill_super()",
	d_alloc => "2002: the dentry, before d_alloc_name()",
	full_name_hash => "2002: the name's hash, which d_alloc_name() computes now",
	PAGE_CACHE_SIZE => "2002: the block size, removed in 4.6",
	CURRENT_TIME => "2002: the time, before current_time()",
	simple_strtol => "2002: the write's parser, before kstrtos64()",
	simple_dir_inode_operations => "2002: the article's directory operations",
	# The kernel's own filesystems, which lwnfs does as they do.
	mode_strip_sgid => "the VFS's, which clears set-group-ID from a new file's mode before ->create",
	seq_lseek => "the llseek of /proc's seq_file files, which a counter open for reading seeks as",
);
# Paths the docs name that are the kernel's, or that the build makes.
my %OUTSIDE = (
	'merge_config.sh' => "the kernel's scripts/kconfig/merge_config.sh",
	'checkpatch.pl' => "the kernel's scripts/checkpatch.pl",
	'kvm_guest.config' => "the kernel's arch/x86/configs/kvm_guest.config",
	'conftest.h' => "written by conftest.sh at build time",
);
# Errnos of lwnfs.5 that lwnfs.c does not return itself.
my %VFS_ERRNOS = (
	EACCES => "the VFS's permission check, before lwnfs is called",
	ENODEV => "the VFS's do_mmap() for a file without ->mmap, as a counter is",
	EOPNOTSUPP => "the VFS's vfs_tmpfile() for a directory without ->tmpfile, as lwnfs's are",
	ENAMETOOLONG => "the VFS's lookup refuses a name over NAME_MAX (255)",
	ENOTEMPTY => "libfs's simple_rmdir(), which lwnfs_rmdir() calls",
	EROFS => "the VFS's mnt_want_write() on a read-only mount",
	ERANGE => "kstrtos64(), whose error lwnfs_write_iter() returns",
);
# Errnos lwnfs.c returns that no user sees, so that ERRORS need not list them.
my %UNSEEN_ERRNOS = (
	EAGAIN => "only to io_uring's IOCB_NOWAIT try, which io_uring then makes again in its own threads",
);
# Messages README.md's Troubleshooting quotes that are other programs'.
my %OTHERS_MESSAGES = (
	'Error! Bad return status for module build' => "dkms's, when a build fails",
	'dpkg: error processing package' => "dpkg's, for the kernel package whose DKMS hook failed",
);

chdir(dirname(dirname(dirname(__FILE__)))) or die "docs: $!\n";
my ($problems, %n) = (0);
sub problem { print STDERR "docs: $_[0]\n"; $problems++ }
sub slurp {
	open(my $fh, '<', $_[0]) or do { problem("no $_[0]"); return '' };
	local $/;
	return <$fh>;
}
sub words { my %w; for (@_) { $w{$_} = 1 for slurp($_) =~ /\w+/g } return \%w }
my @docs = ('README.md', 'lwnfs.5', sort glob('docs/*.md'));
my (@tree, @harness);
find({ no_chdir => 1, wanted => sub {
	$File::Find::prune = 1 if $_ eq './.git';
	push @tree, s{^\./}{}r if -f;
} }, '.');
# tests/data/breaks holds docs' and code's words broken on purpose.
@harness = grep { m{^(?:harness|bench|tests|scripts|\.ci)/} && $_ ne 'tests/data/breaks' && -T } @tree;
my %basename = map { s{.*/}{}r => 1 } @tree;
my ($code, $build, $in_harness) = (words(qw(lwnfs.c lwnfs.h conftest.sh Kbuild)),
	words(qw(dkms.conf Makefile)), words(@harness));

# --- What the docs say: [file, line, kind, text] -------------------------
# span (in backticks), sh (a line of a sh block), make (a make command in
# bold in lwnfs.5), path, link, heading, name (lwnfs_*, LWNFS_*), kname
# (another C name: a span of one with an underscore, or name()).
my (@said, @excerpts, %row);
sub said { push @said, [@_] }
sub paths {
	my ($f, $n, $s) = @_;
	while ($s =~ m{(?:^|[^\w./\$-])((?:harness|bench|tests|scripts|debian|docs|\.ci)/[\w./*?<>-]*)}g) {
		said($f, $n, 'path', $1 =~ s/[.,;:)]+$//r);
	}
}
sub names {
	my ($f, $n, $s, $span) = @_;
	said($f, $n, 'name', $1) while $s =~ /(?<![\$\w])((?:lwnfs|LWNFS)_\w*[A-Za-z0-9])(?![\w*<])/g;
	my ($id, $call) = ($span // '') =~ /^(?:(?:struct|enum) )?([A-Za-z_]\w*)(\(\))?$/;
	said($f, $n, 'kname', $id) if $id && $id !~ /^(?:lwnfs|LWNFS)_/ && ($id =~ /_/ || $call);
	return if defined $span;
	for ($s =~ /\b([A-Za-z_]\w*)\(\)/g) { said($f, $n, 'kname', $_) unless /^(?:lwnfs|LWNFS)_/ }
}
# Measured figures live in docs/results.md, generated; anywhere else they
# go stale: a time, a date (but lwnfs.5's .TH), a commit, a count of tests.
my $figure = qr/\b\d+(?:[.,]\d+)?[ ]?(?:ms|s|sec|seconds?|min|minutes?|h|hours?)\b|\b(?:19|20)\d\d-\d\d-\d\d\b
	|\b\d{1,2}[ ](?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*[ ](?:19|20)\d\d\b
	|\bcommit[ ][0-9a-f]{7,40}\b|\b\d+[ ](?:tests|passed|failed|skipped)\b/x;
for my $f (@docs) {
	my ($fence, $lang, $before, $block) = (0, '', '');
	my @lines = split /\n/, slurp($f);
	for my $i (0 .. $#lines) {
		my ($l, $n) = ($lines[$i], $i + 1);
		problem("$f:$n: a measured figure belongs in docs/results.md: $l")
			if $f ne 'docs/results.md' && $l =~ $figure && $l !~ /^\.TH /;
		if ($f =~ /\.5$/) {
			paths($f, $n, $l);
			next if $l =~ /^\.\\"/;
			said($f, $n, 'make', $1 =~ tr/",//dr =~ s/\\-/-/gr) if $l =~ /^\.B[RI]? "?(make(?: |").*)/;
			my $t = $l;
			$t =~ s/^\.[A-Z]+ // and $t =~ tr/" //d if $l =~ /^\.(?:BR|RB|IR|RI|BI|IB) /;
			$t =~ s/^\.[A-Z]+ //;
			names($f, $n, $t =~ s/\\f[BIRP]//gr);
			next;
		}
		if ($l =~ /^```(.*)/) {
			# an excerpt: the block after a line "From FILE:"
			push @excerpts, [@$block, $1] if $fence && $before =~ /^From (\S+):$/;
			($fence, $lang, $before, $block) = $fence ? (0, '', $l) : (1, $1, $before, ["$f:$n", []]);
			next;
		}
		push @{$block->[1]}, $l if $fence;
		if ($fence) { said($f, $n, 'sh', $l), paths($f, $n, $l) if $lang eq 'sh'; next }
		$before = $l if $l =~ /\S/;
		# the table of probes: a row with a probe (`IOP_IDMAP`) and a kernel (6.3)
		my @cells = $l =~ /^\|/ ? map { s/^\s+|\s+$//gr } split /\|/, $l : ();
		my ($probe, $kernel) = ((map { /^`([A-Z][A-Z0-9_]*)`$/ } @cells), grep { /^\d+\.\d+$/ } @cells);
		$row{$probe} = ["$f:$n", $kernel] if $probe && $kernel;
		paths($f, $n, $l);
		my @part = split /`/, $l, -1;
		for my $j (0 .. $#part) {
			if ($j % 2 && $j < $#part) {
				said($f, $n, 'span', $part[$j]);
				names($f, $n, $part[$j], $part[$j]);
			} elsif (!($j % 2)) {
				names($f, $n, $part[$j]);
			}
		}
		said($f, $n, 'link', $1) while $l =~ /\]\(([^) ]+)\)/g;
		if ($l =~ /^#+ (.*)/) {
			said($f, $n, 'heading', lc($1) =~ s/[^a-z0-9 _-]//gr =~ tr/ /-/r);
		}
	}
}

# --- Paths, links, names, tests ------------------------------------------
sub check_path {
	my ($where, $p) = @_;
	$p =~ s{^\./}{};
	$p =~ s/#.*//;
	return if $p eq '' || $p =~ /[<>\$]/ || $OUTSIDE{$p};
	$n{paths}++;
	if ($p =~ /[*?[]/) { problem("$where: nothing matches $p") unless glob($p) }
	elsif ($p =~ m{/}) { problem("$where: no $p") unless -e $p || -e "$p.c" }
	else { problem("$where: no file $p in the tree") unless $basename{$p} }
}
my %heading = map { ("$_->[0]#$_->[3]" => 1) } grep { $_->[2] eq 'heading' } @said;
my %test = map { $_ => 1 } map { slurp($_) =~ /^\s*\@test "(.*)" \{/mg } grep { /\.bats$/ } @harness;
my %seen;
for (@said) {
	my ($f, $n, $kind, $t) = @$_;
	my $where = "$f:$n";
	if ($kind eq 'path') {
		check_path($where, $t);
	} elsif ($kind eq 'span') {
		for (split ' ', $t) {
			check_path($where, $_) if m{^(?:\./)?[\w.-]+\.(?:c|h|sh|pl|md|bats|bash|5|conf|config|expected)$}
				|| /^(?:Kbuild|Makefile|LICENSE)$/;
		}
		if ($t =~ /^\@test "(.*)"$/) {
			$n{tests}++;
			problem("$where: no test is \@test \"$1\"") unless $test{$1};
		}
	} elsif ($kind eq 'link' && $t !~ /^(?:https?|mailto):/) {
		$n{links}++;
		my ($target, $anchor) = split /#/, $t, 2;
		$target = $target eq '' ? $f : File::Spec->abs2rel(File::Spec->rel2abs($target, dirname($f)));
		$target =~ s{[^/]+/\.\./}{}g;
		if (!-e $target) { problem("$where: a link to $t: no $target") }
		elsif (defined $anchor && !$heading{"$target#$anchor"}) {
			problem("$where: a link to $t: no heading #$anchor in $target");
		}
	} elsif ($kind =~ /^k?name$/ && !$seen{"$f $t"}++) {
		$n{names}++;
		next if $code->{$t};
		if ($kind eq 'name') {
			problem("$where: $t is in none of lwnfs.c, lwnfs.h, conftest.sh, Kbuild")
				if $t =~ /^lwnfs_/ || !$in_harness->{$t};
			next;
		}
		next if $build->{$t} || ($f eq 'docs/testing.md' && $in_harness->{$t});
		next if grep { my $p = quotemeta($_) =~ s/\\\*/.*/gr; $t =~ /^$p$/ } keys %NAMES;
		problem("$where: $t is not in the code, and not on docs-check.pl's list of names");
	}
}

# --- Excerpts and the table of probes ------------------------------------
# An excerpt is a run of its file's lines, byte for byte; else the first of
# its lines that no run of the file's matches with those before it.
for (@excerpts) {
	my ($where, $want, $file) = @$_;
	$n{excerpts}++;
	if (!-f $file) { problem("$where: an excerpt from $file, which is not in the tree"); next }
	my @have = split /\n/, slurp($file), -1;
	my $best = 0;
	for my $i (0 .. $#have) {
		my $j = 0;
		$j++ while $j < @$want && $i + $j < @have && $have[$i + $j] eq $want->[$j];
		$best = $j if $j > $best;
	}
	next if $best == @$want;
	problem("$where: the excerpt differs from $file at its line " . ($best + 1) . ": " . $want->[$best] =~ s/\t/\\t/gr);
}
# Each probe of conftest.sh has a row; its kernel is the version its
# comment starts with.
my ($comment, %probe) = ('');
for (split /\n/, slurp('conftest.sh')) {
	if (/^#/) { $comment ||= $_; next }
	$probe{$1} = $comment if /^probe\s+(\S+)/;
	$comment = '';
}
for my $p (sort keys %row) {
	my ($where, $kernel) = @{$row{$p}};
	$n{probes}++;
	if (!defined $probe{$p}) { problem("$where: conftest.sh has no \"probe $p\"") }
	elsif ($probe{$p} !~ /^# \Q$kernel\E(?:[^0-9.]|$)/) {
		problem("$where: probe $p says $kernel, its comment in conftest.sh: " . ($probe{$p} || 'none'));
	}
}
problem("conftest.sh's probe $_ has no row in a doc's table of probes") for grep { !$row{$_} } sort keys %probe;

# --- Constants -----------------------------------------------------------
# What the code has, in decimal: lwnfs.h's numeric defines, the fixed
# tree's last inode number (its enum's entries before LWNFS_NR_BUILTIN),
# the built-in modes, the options' defaults as a new superblock gets them.
my ($h, $c) = (slurp('lwnfs.h'), slurp('lwnfs.c'));
my %has = map { $_->[0] => $_->[1] =~ /^0/ ? oct($_->[1]) : $_->[1] }
	map { [/^(\S+)\s+(\S+)/] } $h =~ /^#define[ \t]+(LWNFS_\w+[ \t]+(?:0x[0-9a-fA-F]+|\d+))\b/mg;
if ($c =~ /^enum lwnfs_builtin \{\n(.*?)\tLWNFS_NR_BUILTIN/ms) { $has{INODES_LAST} = () = $1 =~ /^\tLWNFS_/mg }
$has{FILE_MODE} = oct($1) if $c =~ /"counter", S_IFREG \| ([0-7]+),/;
$has{DIR_MODE} = oct($1) if $c =~ /"subdir", S_IFDIR \| ([0-7]+),/;
while ($c =~ /^\s*sbi->opts\.(mode|max_counters) = (\w+);/mg) {
	my ($option, $v) = ($1, $2);
	$v = $has{$v} if $v =~ /^LWNFS_/;
	$has{'DEFAULT_' . uc($option)} = $v =~ /^0/ ? oct($v) : $v if defined $v;
}
$has{INODES_FIRST} = 1;
my %rule = (
	LWNFS_MAGIC => qr/\b(0x[0-9a-fA-F]{8})\b/,
	LWNFS_WRITE_MAX => qr/\b(?:write|written|it was)\b[^.]{0,60}?\b(?:longer|more)\s+than\s+(\d+)\s+bytes/i,
	LWNFS_TEXT_MAX => qr/\b(\d+)\s+bytes\s+or\s+more/i,
	DEFAULT => qr/\b(mode|max_counters)= ?\S*\s[^.;]{0,80}?\(default\s+([\d,]+)\)/,
	FILE_MODE => qr/\bbuilt-in\s+files\s+(?:have\s+)?(?:mode\s+)?(0[0-7]{3})\b/i,
	DIR_MODE => qr/\bits\s+directories\s+(?:mode\s+)?(0[0-7]{3})\b/i,
	INODES => qr/\binode\s+numbers\s+(\d+)\s+to\s+(\d+)\b/i,
	DEFINE => qr/\b(LWNFS_[A-Z0-9_]+)[,:]?\s+\(?(0x[0-9a-fA-F]+|\d+)\b/,
);
my (%stated, %dup);	# %stated: lwnfs.5's, so that the check checks something
for my $f (@docs) {
	# the text, lines joined (a statement may span two), markup out
	my ($text, @at, $fence) = ('');
	my @lines = split /\n/, slurp($f);
	for my $i (0 .. $#lines) {
		my $l = $lines[$i];
		if ($f =~ /\.md$/ && $l =~ /^```/) { $fence = !$fence; next }
		next if $fence || $l =~ /^\.\\"/;
		$l =~ s/^\.[A-Z]{1,2}\b ?|\\f[BIRP]|"//g, $l =~ s/\\-/-/g if $f =~ /\.5$/;
		$l =~ s/[`*]//g;
		push @at, [length($text), $i + 1];
		$text .= ($l =~ s/^\s+//r) . ' ';
	}
	for my $r (sort keys %rule) {
		while ($text =~ /$rule{$r}/g) {
			my $line = (grep { $_->[0] <= $-[0] } @at)[-1][1];
			my @said = $r eq 'DEFINE' ? ([$1, $2]) : $r eq 'DEFAULT' ? (['DEFAULT_' . uc($1), $2])
				: $r eq 'INODES' ? (['INODES_FIRST', $1], ['INODES_LAST', $2]) : ([$r, $1]);
			for (@said) {
				my ($name, $v) = @$_;
				next if $dup{"$f $line $name"}++;
				my $d = $v =~ tr/,//dr;
				$d = $name =~ /MODE$/ ? oct($d) : $d =~ /^0x/ ? hex($d) : $d;
				$stated{$name} = 1 if $f eq 'lwnfs.5';
				if (!defined $has{$name}) {
					problem("$f:$line: states $name = $v, and the code has no $name")
						unless $h =~ /\b\Q$name\E\b/;
					next;
				}
				$n{constants}++;
				my $want = $name =~ /MODE$/ ? sprintf('0%o', $has{$name})
					: $name =~ /MAGIC$/ ? sprintf('0x%x', $has{$name}) : $has{$name};
				problem("$f:$line: states $name = $v, the code has $want") if $d != $has{$name};
			}
		}
	}
}
for (qw(LWNFS_MAGIC LWNFS_WRITE_MAX DEFAULT_MODE DEFAULT_MAX_COUNTERS INODES_LAST)) {
	problem("lwnfs.5 no longer states $_ as docs-check.pl reads it: the check would check nothing")
		unless $stated{$_};
}

# --- Make commands -------------------------------------------------------
my $makefile = slurp('Makefile');
my %target = map { $_ => 1 } map { split ' ' } $makefile =~ /^([A-Za-z0-9][\w -]*):(?:[^=]|$)/mg;
for (grep { $_->[2] =~ /^(?:span|sh|make)$/ } @said) {
	my ($f, $n, undef, $t) = @$_;
	$t =~ s/#.*//;
	$t =~ s/<[^>]*>/X/g;
	# make, after nothing but sudo and VAR=value words; its first target
	next unless $t =~ /^\s*(?:(?:sudo|\S+=\S*)\s+)*make(?:\s+(.*)|\s*$)/;
	my @w = split ' ', $1 // '';
	my $target;
	while (defined(my $w = shift @w)) {
		last if $w =~ /^(?:&&|\|\||;|\|)$/;
		if ($w =~ /^-[Cfjo]$/) { shift @w; next }
		next if $w =~ /^-|=/;
		$target = $w;
		last;
	}
	next unless defined $target;
	$n{targets}++;
	problem("$f:$n: make $target: no such target in the Makefile")
		unless $target =~ /^[a-z][\w-]*$/ && $target{$target};
}

# --- Errors of lwnfs.5 ---------------------------------------------------
my %listed = map { $_ => 1 } (slurp('lwnfs.5') =~ /^\.SH ERRORS\n(.*?)(?:^\.SH |\z)/ms)[0] =~ /^\.TP\n\.B (E[A-Z0-9]+)$/mg;
my %returned = map { $_ => 1 } "$c$h" =~ /-(E[A-Z0-9]+)\b/g;
problem('lwnfs.5: no errno under ERRORS') unless %listed;
for (sort keys %listed) {
	problem("lwnfs.5: ERRORS lists $_, which lwnfs.c and lwnfs.h never return, and which is not in docs-check.pl's VFS_ERRNOS")
		unless $returned{$_} || $VFS_ERRNOS{$_};
	problem("lwnfs.5: ERRORS lists $_, which docs-check.pl's UNSEEN_ERRNOS says no user sees") if $UNSEEN_ERRNOS{$_};
}
for (sort keys %returned) {
	problem("lwnfs.5: the code returns $_, which ERRORS does not list") unless $listed{$_} || $UNSEEN_ERRNOS{$_};
}

# --- Messages README.md's Troubleshooting quotes -------------------------
# Each span of three words or more (but a command: sudo, make, a file of
# the tree first) and each line of a block that is not sh: each piece, cut
# at <placeholders>, "..." and ": ", of two words or more is in the tree,
# whole or less its last words down to three (a value there: "module $1").
my $corpus = join '', map { slurp($_) } qw(lwnfs.c lwnfs.h conftest.sh Kbuild Makefile dkms.conf),
	@harness, grep { m{^debian/} && -T } @tree;
my (@messages, $on, $fence, $para);
for (split /\n/, slurp('README.md') . "\n## end") {
	if (/^```(\w*)/) { $fence = $fence ? undef : $1; next }
	if (defined $fence) { push @messages, $_ if $on && $fence ne 'sh' && /\S/; next }
	if (/^\s*$/ || /^## /) {
		push @messages, grep { split(' ') >= 3 && !/^(?:sudo|make) / && !-f (split ' ')[0] }
			map { s/\s+/ /gr } ($para // '') =~ /`([^`]+)`/g if $on;
		$para = '';
		$on = /^## Troubleshooting$/ if /^## /;
		next;
	}
	$para .= "$_ ";
}
problem('README.md: no message under Troubleshooting') unless @messages;
for my $m (@messages) {
	$n{messages}++;
	next if grep { index($m, $_) == 0 } keys %OTHERS_MESSAGES;
	for my $piece (split /<[^>]*>|\.\.\.|: /, $m) {
		$piece =~ s/^[\s,;:(]+|[\s,;:]+$//g;
		next if (() = $piece =~ /[A-Za-z]{2,}/g) < 2;
		my @w = split ' ', $piece;
		pop @w while @w > 3 && index($corpus, "@w") < 0;
		problem("README.md: quotes \"$piece\" ($m), which nothing in the tree says or tests, and which docs-check.pl's OTHERS_MESSAGES does not list")
			if index($corpus, "@w") < 0;
	}
}

# --- make help and docs/testing.md's table -------------------------------
# The terse list and the doc's: the same targets, and make lint's tools.
my $help = `make -s --no-print-directory help 2>/dev/null`;
my $testing = slurp('docs/testing.md');
my %help = map { $_ => 1 } $help =~ /^make ([a-z][a-z0-9-]*)/mg;
my %table = map { $_ => 1 } map { /`make ([a-z][a-z0-9-]*)`/g } $testing =~ /^\| (`make[^|]*) \|/mg;
problem("make help lists make $_, docs/testing.md's table of targets does not") for grep { !$table{$_} } sort keys %help;
problem("docs/testing.md's table of targets lists make $_, make help does not") for grep { !$help{$_} } sort keys %table;
my ($help_lint) = $help =~ /^make lint +(.*)$/m;
my ($doc_lint) = $testing =~ /^\| `make lint` \| (.*) \|$/m;
if (!$help_lint || !$doc_lint) { problem('make help or docs/testing.md lists no tools for make lint') }
elsif ($help_lint ne $doc_lint) { problem("make help lists make lint's tools as \"$help_lint\", docs/testing.md as \"$doc_lint\"") }

exit 1 if $problems;
print "docs: ok (" . scalar(@docs) . " docs; " . join(', ', map { "$n{$_} $_" } sort keys %n) . " checked)\n";
