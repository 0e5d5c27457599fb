# Answers robots.txt queries with libwww-perl's WWW::RobotRules. Input and
# output as in drivers.js.
use strict;
use warnings;
use JSON::PP;
use WWW::RobotRules;

open(my $fh, '<:encoding(UTF-8)', $ARGV[0]) or die "$ARGV[0]: $!";
my $data = decode_json(do { local $/; my $s = <$fh>; utf8::encode($s); $s });
my @out;
for my $q (@{ $data->{queries} }) {
    my $rules = WWW::RobotRules->new($q->{agent});
    $rules->parse('http://example.com/robots.txt', $data->{files}[$q->{file}]);
    push @out, $rules->allowed($q->{url}) ? JSON::PP::true : JSON::PP::false;
}
print encode_json({ 'WWW::RobotRules' => \@out });
