/**
 * English stop words: articles, pronouns, auxiliaries, prepositions, conjunctions,
 * common adverbs and contractions (lower-case, with a straight apostrophe). Content
 * words that some stock lists carry ("computer", "system", "bill") are left out.
 */
export const ENGLISH_STOP_WORDS: readonly string[] = `
a about above across after afterwards again against ago all almost alone along already also
although always am among amongst an and another any anybody anyhow anyone anything anyway
anywhere are aren't around as at away
b be became because become becomes becoming been before beforehand behind being below beside
besides between beyond both but by
c can can't cannot could couldn't
d did didn't do does doesn't doing don't done down during
e each either else elsewhere enough etc even ever every everybody everyone everything
everywhere except
f few for former formerly from further furthermore
g get gets getting got
h had hadn't has hasn't have haven't having he he'd he'll he's hence her here here's hereafter
hereby herein hers herself him himself his how how's however
i i'd i'll i'm i've ie if in indeed instead into is isn't it it'd it'll it's its itself
j just
k
l last latter latterly least less let let's like ll
m many may maybe me meanwhile might mightn't mine more moreover most mostly much must mustn't my
myself
n namely neither never nevertheless next no nobody none nonetheless noone nor not nothing now
nowhere
o of off often on once one only onto or other others otherwise ought our ours ourselves out
over own
p per perhaps please
q quite
r rather re really
s same say says said several shall shan't she she'd she'll she's should shouldn't since so some
somebody somehow someone something sometime sometimes somewhat somewhere still such
t than that that's the their theirs them themselves then thence there there's thereafter
thereby therefore therein thereupon these they they'd they'll they're they've this those
though through throughout thru thus to together too toward towards
u under unless until up upon us
v ve very via
w was wasn't we we'd we'll we're we've well were weren't what what's whatever when when's
whence whenever where where's whereafter whereas whereby wherein whereupon wherever whether
which while whither who who's whoever whole whom whose why why's will with within without
won't would wouldn't
x
y yet you you'd you'll you're you've your yours yourself yourselves
z
`
  .split(/\s+/)
  .filter((w) => w.length > 0);
