import { dollarQuoted, sqlLiteral } from './sql-literal';

describe('dollarQuoted', () => {
  it('quotes text with the plain tag when the text does not contain it', () => {
    const text = `{"title":"O'Brien \\\\ $1 $$"}`;
    expect(dollarQuoted(text)).toBe(`$json$${text}$json$`);
  });

  it('picks another tag when the text contains the tag', () => {
    expect(dollarQuoted('a $json$ b')).toBe('$json1$a $json$ b$json1$');
    expect(dollarQuoted('$json$ and $json1$')).toBe('$json2$$json$ and $json1$$json2$');
  });

  it('picks another tag when the end of the text and the closing tag would read as the tag early', () => {
    // "x$json" + "$json$" contains "$json$" starting inside the text.
    expect(dollarQuoted('x$json')).toBe('$json1$x$json$json1$');
  });
});

describe('sqlLiteral', () => {
  it('types JSON documents as json and dates as timestamptz', () => {
    expect(sqlLiteral.json({ a: [1] })).toBe('$json${"a":[1]}$json$::json');
    expect(sqlLiteral.timestamptz(new Date('2026-11-21T10:00:00.000Z'))).toBe(`'2026-11-21T10:00:00.000Z'::timestamptz`);
  });

  it("quotes a text whatever it holds (quotes, a tag's look-alike), typed text", () => {
    expect(sqlLiteral.text("it's $json$")).toBe("$json1$it's $json$$json1$::text");
  });
});
