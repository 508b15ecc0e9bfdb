//! A submission's files as the Contest API carries them: a zip ([`zip_of`]),
//! sent by `judge submit` and served by `judge serve`.

use std::io::Write;

use super::model::SourceFile;

/// A zip in memory holding `content` as the file `name`.
pub(crate) fn zip_one(name: &str, content: &[u8]) -> Vec<u8> {
    zip_of(&[SourceFile::new(name, content.to_vec())])
}

/// A zip in memory holding `files`, in order.
pub(crate) fn zip_of(files: &[SourceFile]) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut out);
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for file in files {
        zip.start_file(file.name.as_str(), options)
            .expect("a zip in memory");
        zip.write_all(&file.content).expect("a zip in memory");
    }
    zip.finish().expect("a zip in memory");
    out.into_inner()
}
