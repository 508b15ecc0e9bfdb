//! A submission's source as the Contest API carries it: a zip of its one
//! file ([`zip_one`]), sent by `judge submit` and served by `judge serve`.

use std::io::Write;

/// A zip in memory holding `content` as the file `name`.
pub(crate) fn zip_one(name: &str, content: &[u8]) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut out);
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file(name, options).expect("a zip in memory");
    zip.write_all(content).expect("a zip in memory");
    zip.finish().expect("a zip in memory");
    out.into_inner()
}
