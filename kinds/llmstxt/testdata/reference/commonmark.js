// Reads a JSON array of llms.txt texts on stdin and prints, for each, what
// a CommonMark reader (commonmark.js, the reference implementation of the
// CommonMark spec; its path is the first argument) reads in the shape
// read.py prints: the H1, the blockquote's text, and each H2 with its
// list of links (text, destination, the text after ": "). A value read as
// anything but plain text (emphasis, code, a link, HTML, a line break) is
// an error naming it.
const cm = require(process.argv[2]);
const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));

function plain(node, what) {
  let s = '';
  for (let c = node.firstChild; c; c = c.next) {
    if (c.type !== 'text') throw new Error(what + ' holds ' + c.type);
    s += c.literal;
  }
  return s;
}

function read(txt) {
  const doc = new cm.Parser().parse(txt);
  const out = {title: null, summary: null, sections: []};
  let section = null;
  for (let b = doc.firstChild; b; b = b.next) {
    if (b.type === 'heading' && b.level === 1 && out.title === null) {
      out.title = plain(b, 'the H1');
    } else if (b.type === 'block_quote' && out.summary === null && out.sections.length === 0) {
      if (b.firstChild.type !== 'paragraph' || b.firstChild !== b.lastChild) throw new Error('the blockquote holds ' + b.firstChild.type);
      out.summary = plain(b.firstChild, 'the blockquote');
    } else if (b.type === 'heading' && b.level === 2) {
      section = [plain(b, 'an H2'), []];
      out.sections.push(section);
    } else if (b.type === 'list' && section) {
      for (let item = b.firstChild; item; item = item.next) {
        const p = item.firstChild;
        const link = p.firstChild;
        if (!link || link.type !== 'link') throw new Error('a list item does not start with a link');
        const title = plain(link, 'a link text');
        let notes = null;
        if (link.next) {
          let rest = '';
          for (let c = link.next; c; c = c.next) {
            if (c.type !== 'text') throw new Error('notes hold ' + c.type);
            rest += c.literal;
          }
          if (!rest.startsWith(': ')) throw new Error('text after a link is not ": notes"');
          notes = rest.slice(2);
        }
        section[1].push([title, link.destination, notes]);
      }
    } else if (section) {
      throw new Error('a section holds ' + b.type);
    }
  }
  return out;
}

process.stdout.write(JSON.stringify(texts.map(t => {
  try { return read(t); } catch (e) { return {error: e.message}; }
})));
