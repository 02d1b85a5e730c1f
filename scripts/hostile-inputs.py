#!/usr/bin/env python3
"""Writes the hostile and unlucky inputs of README's bad-input catalogue (issues 28 and 44) into
a folder, the same shapes the tests make in code (tests/hostile_pdfs/, tests/bad_inputs.rs,
tests/formats_office.rs, tests/hostile_documents.rs, tests/output_targets.rs), for
`scripts/bench-all.sh hostile` to time and measure.

    scripts/hostile-inputs.py DIR
"""
import base64
import pathlib
import random
import sys
import warnings
import zipfile
import zlib

TEXT = b"BT /F1 12 Tf 72 720 Td (Hello there, this is a sentence.) Tj ET"


def pdf(objects):
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def stream(data, dictionary=b"", deflate=False):
    if deflate:
        data = zlib.compress(data, 9)
        dictionary += b" /Filter /FlateDecode"
    return b"<< %s /Length %d >>\nstream\n" % (dictionary, len(data)) + data + b"\nendstream"


def hello(before=b"", font=b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", extra=()):
    return pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>",
        b"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        stream(before + TEXT, deflate=True),
        font,
        *extra,
    ])


def epub(path, chapter, extra):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("mimetype", "application/epub+zip")
        z.writestr("META-INF/container.xml",
                   '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
                   '<rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
        z.writestr("book.opf",
                   '<package xmlns="http://www.idpf.org/2007/opf"><manifest><item id="c" href="c.xhtml" '
                   'media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c"/></spine></package>')
        z.writestr("c.xhtml", '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head>'
                   f"<body>{chapter}</body></html>")
        for name, data in extra:
            z.writestr(name, data)


def write(folder, name, data):
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())


def main():
    folder = pathlib.Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    # Finding 1: a page that is its own /Parent.
    write(folder, "loop.pdf", pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 3 0 R /Contents 4 0 R >>",
        stream(TEXT),
    ]))
    # Finding 2: a font map with a range of four billion codes; millions of saved states.
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange "
            b"<00> <FF> endcodespacerange 1 beginbfrange <00000000> <ffffffff> <0041> endbfrange "
            b"endcmap CMapName currentdict /CMap defineresource pop end end")
    write(folder, "cmap.pdf", hello(
        font=b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
        extra=[stream(cmap)]))
    write(folder, "saves-2m.pdf", hello(b"q " * 2_000_000))
    write(folder, "saves-10m.pdf", hello(b"q " * 10_000_000))
    # Finding 3: attributes.
    attributes = "".join(f' a{i}="1"' for i in range(80_000))
    with zipfile.ZipFile(folder / "attributes.docx", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml",
                   '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
                   f"<w:body><w:p{attributes}><w:r><w:t>Boats stayed in.</w:t></w:r></w:p></w:body></w:document>")
    write(folder, "attributes.html", "<html><body><p" + "".join(f" a{i}" for i in range(320_000))
          + ">The harbour froze early that winter.</p></body></html>")
    # Finding 10: a small EPUB whose chapter unpacks to 60 MiB of paragraphs.
    body = "<p>Boats stayed in.</p>\n" * (60 * 1024 * 1024 // 24)
    with zipfile.ZipFile(folder / "unpacks.epub", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("mimetype", "application/epub+zip")
        z.writestr("META-INF/container.xml",
                   '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
                   '<rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
        z.writestr("book.opf",
                   '<package xmlns="http://www.idpf.org/2007/opf"><manifest><item id="c" href="c.xhtml" '
                   'media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c"/></spine></package>')
        z.writestr("c.xhtml", f'<html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body>{body}</body></html>')
    # Issue 44: the audit's EPUB (0.8 MB: 60 MB of <p>a</p> and an unread entry of random
    # bytes), the same chapter padded with random text of its own (a comment) so that it passes
    # the allowance of 100 times the compressed bytes read, 20 MB of one-letter paragraphs,
    # 60 MB of the smallest HTML paragraphs, 200,000 nested ODT lists, HTML nested 1,000 deep,
    # a DOCX naming its main part twice, and 250,000 sentences for `inspect --json` to a pipe.
    rng = random.Random(44)
    noise = bytes(rng.getrandbits(8) for _ in range(700_000))
    paragraphs = "<p>a</p>" * 7_500_000
    epub(folder / "unpacks-random.epub", paragraphs, [("random.bin", noise)])
    padding = base64.b64encode(noise).decode()
    epub(folder / "unpacks-padded.epub", f"<!-- {padding} -->" + paragraphs, [])
    write(folder, "letters-20mb.txt", "a\n\n" * 6_666_666)
    write(folder, "paragraphs-60mb.html", "<html><body>" + paragraphs + "</body></html>")
    body = "".join(f"<text:list><text:list-item><text:p>Word {i * 7919 % 1000003} here.</text:p>"
                   for i in range(200_000)) + "</text:list-item></text:list>" * 200_000
    with zipfile.ZipFile(folder / "nested-lists.odt", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml",
                   '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
                   'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>'
                   f"{body}</office:text></office:body></office:document-content>")
    write(folder, "deep.html", "<html><body>" + "<div><h1>Title</h1><p>word</p>" * 1000
          + "</div>" * 1000 + "</body></html>")
    document = ('<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
                "<w:body><w:p><w:r><w:t>{}</w:t></w:r></w:p></w:body></w:document>")
    with warnings.catch_warnings(), zipfile.ZipFile(folder / "twice.docx", "w") as z:
        warnings.simplefilter("ignore")  # "Duplicate name": the point of the file
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", document.format("The text a reader shows."))
        z.writestr("word/document.xml", document.format("The text it hides."))
    write(folder, "sentences-250k.txt",
          "".join(f"Sentence number {i} is about the harbour. " for i in range(250_000)))
    # Memory per input, the worst shapes known: 8 MB each.
    write(folder, "letters.txt", "a\n\n" * 2_700_000)
    write(folder, "paragraphs.html", "<html><body>" + "<p>a b.</p>" * 800_000 + "</body></html>")
    write(folder, "sentences.txt", "A b. " * 1_600_000)
    # The PDF worker's cost: 100 small PDFs of distinct text, read as a collection.
    pdfs = folder / "pdfs"
    pdfs.mkdir(exist_ok=True)
    for i in range(100):
        lines = b" ".join(b"0 -14 Td (Line %d of document %d, with words of its own: w%dx%d.) Tj" % (j, i, i, j)
                          for j in range(40))
        write(pdfs, f"doc{i:03}.pdf", pdf([
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>",
            b"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
            stream(b"BT /F1 10 Tf 72 760 Td " + lines + b" ET", deflate=True),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]))


if __name__ == "__main__":
    main()
