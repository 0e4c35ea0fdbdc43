#!/bin/sh
# Makes test/fixtures/xlsx/libreoffice-customers.xlsx: a flat ODS written here, saved as .xlsx by
# LibreOffice Calc ("Calc MS Excel 2007 XML" filter), so the test reads what Calc really writes.
# Needs LibreOffice (Debian: libreoffice-calc-nogui); CI does not: the .xlsx is committed.
set -eu
out="$(cd "$(dirname "$0")/.." && pwd)/test/fixtures/xlsx"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/libreoffice-customers.fods" <<'FODS'
<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
 xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
 <office:automatic-styles>
  <number:date-style style:name="Ndate">
   <number:day number:style="long"/><number:text>.</number:text>
   <number:month number:style="long"/><number:text>.</number:text>
   <number:year number:style="long"/>
  </number:date-style>
  <number:currency-style style:name="Neur">
   <number:number number:decimal-places="2" number:min-integer-digits="1" number:grouping="true"/>
   <number:text> </number:text><number:currency-symbol>€</number:currency-symbol>
  </number:currency-style>
  <style:style style:name="cdate" style:family="table-cell" style:data-style-name="Ndate"/>
  <style:style style:name="ceur" style:family="table-cell" style:data-style-name="Neur"/>
 </office:automatic-styles>
 <office:body><office:spreadsheet>
  <table:table table:name="Kunden">
   <table:table-row>
    <table:table-cell office:value-type="string"><text:p>Name</text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>Street</text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>City</text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>Zip</text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>Last visit</text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>Visits</text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>Deal</text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>Deal per visit</text:p></table:table-cell>
   </table:table-row>
ROWS
  </table:table>
  <table:table table:name="Notizen">
   <table:table-row><table:table-cell office:value-type="string"><text:p>Second sheet, not imported</text:p></table:table-cell></table:table-row>
  </table:table>
 </office:spreadsheet></office:body>
</office:document>
FODS
row() { # name street city zip date visits deal
  r=$1
  printf '   <table:table-row>'
  printf '<table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell>' "$2" "$3" "$4"
  printf '<table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell>' "$5"
  printf '<table:table-cell table:style-name="cdate" office:value-type="date" office:date-value="%s"/>' "$6"
  printf '<table:table-cell office:value-type="float" office:value="%s"/>' "$7"
  printf '<table:table-cell table:style-name="ceur" office:value-type="currency" office:currency="EUR" office:value="%s"/>' "$8"
  printf '<table:table-cell table:formula="of:=[.G%s]/[.F%s]" office:value-type="float" office:value="%s"/>' "$r" "$r" "$9"
  printf '</table:table-row>\n'
}
{
  row 2 'Müller GmbH' 'Hauptstraße 5' 'München' '80331' 2024-03-15 4 12500.5 3125.125
  row 3 'Søndergaard ApS' 'Østergade 12' 'København' '1100' 2024-01-02 2 800 400
  printf '   <table:table-row><table:table-cell table:number-columns-repeated="8"/></table:table-row>\n'
  row 5 'García y Hijos' 'Calle Mayor 1' 'Sevilla' '41001' 2023-12-31 5 1999.99 399.998
  row 6 'Łukasz Żółć' 'ul. Długa 3' 'Gdańsk' '80-831' 2024-02-29 1 450 450
  row 7 '北京贸易有限公司' '长安街 1号' '北京' '100000' 2024-06-01 3 30000 10000
} > "$work/rows.xml"
sed -i -e "/^ROWS\$/r $work/rows.xml" -e '/^ROWS$/d' "$work/libreoffice-customers.fods"
soffice --headless --norestore -env:UserInstallation="file://$work/profile" \
  --convert-to 'xlsx:Calc MS Excel 2007 XML' --outdir "$out" "$work/libreoffice-customers.fods"
