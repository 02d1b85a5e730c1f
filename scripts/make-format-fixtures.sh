#!/usr/bin/env bash
# Regenerates the DOCX, ODT, PDF and EPUB fixtures in tests/fixtures/formats/ from the enwiki-2015
# article assets/examples/guinea.md (CC BY-SA 3.0, see assets/examples/NOTE.md).
#
# Needs pandoc, LibreOffice Writer and qpdf (Debian: apt-get install -y pandoc
# libreoffice-writer-nogui qpdf) and msoffcrypto-tool (pip install msoffcrypto-tool). The fixtures
# are committed, so tests and CI do not need these.
#
# - guinea.docx: pandoc from the Markdown, with a reference document whose page style has a running
#   header ("Guinea: a simdoc test fixture") and a footer holding the page number (a PAGE field);
# - guinea.odt and guinea.pdf: LibreOffice converts guinea.docx (so the PDF has the running header
#   and a page number on every page, and the ODT carries them as header/footer styles);
# - guinea.epub: pandoc from the Markdown, one chapter per `##` section (EPUB 3);
# - guinea-encrypted.pdf: qpdf encrypts guinea.pdf with a user password (AES-256);
# - guinea-encrypted.docx: msoffcrypto-tool encrypts guinea.docx as Office does with a password
#   (ECMA-376 agile encryption: an OLE compound file holding the encrypted package).
set -euo pipefail
cd "$(dirname "$0")/.."
source=assets/examples/guinea.md
out=tests/fixtures/formats
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# A reference document with a header and a page-number footer.
pandoc -o "$work/ref.docx" --print-default-data-file reference.docx
python3 - "$work/ref.docx" "$work/reference.docx" <<'PY'
import re, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
header = f'<?xml version="1.0" encoding="UTF-8"?><w:hdr {W}><w:p><w:r><w:t>Guinea: a simdoc test fixture</w:t></w:r></w:p></w:hdr>'
footer = (f'<?xml version="1.0" encoding="UTF-8"?><w:ftr {W}><w:p><w:pPr><w:jc w:val="center"/></w:pPr>'
          '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r>'
          '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p></w:ftr>')
R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, 'w', zipfile.ZIP_DEFLATED) as zout:
    for item in zin.infolist():
        data = zin.read(item.filename).decode('utf-8')
        if item.filename == 'word/document.xml':
            data = data.replace('<w:sectPr />', f'<w:sectPr><w:headerReference xmlns:r="{R}" w:type="default" r:id="rIdHdr"/>'
                                f'<w:footerReference xmlns:r="{R}" w:type="default" r:id="rIdFtr"/></w:sectPr>')
        elif item.filename == 'word/_rels/document.xml.rels':
            data = data.replace('</Relationships>',
                f'<Relationship Type="{R}/header" Id="rIdHdr" Target="header1.xml"/>'
                f'<Relationship Type="{R}/footer" Id="rIdFtr" Target="footer1.xml"/></Relationships>')
        elif item.filename == '[Content_Types].xml':
            data = data.replace('</Types>',
                '<Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/>'
                '<Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/></Types>')
        zout.writestr(item, data)
    zout.writestr('word/header1.xml', header)
    zout.writestr('word/footer1.xml', footer)
PY

pandoc "$source" -f markdown -t docx --reference-doc="$work/reference.docx" -o "$out/guinea.docx"
pandoc "$source" -f markdown -t epub3 --epub-chapter-level=2 --metadata title=Guinea -o "$out/guinea.epub"
soffice --headless --convert-to odt --outdir "$work" "$out/guinea.docx" >/dev/null
soffice --headless --convert-to pdf --outdir "$work" "$out/guinea.docx" >/dev/null
cp "$work/guinea.odt" "$work/guinea.pdf" "$out/"
qpdf --encrypt secret owner 256 -- "$out/guinea.pdf" "$out/guinea-encrypted.pdf"
msoffcrypto-tool -e -p secret "$out/guinea.docx" "$out/guinea-encrypted.docx"
ls -l "$out"
