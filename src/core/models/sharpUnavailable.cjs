// Stands in for `sharp` (libvips) inside the bundled transformers.js (dist/transformers.js, see
// esbuild.mjs and docs/packaging.md): Agent Memory runs text models only, so the 19 MB image library
// is not shipped. transformers.js refuses to load when its image module finds no image loader at
// all, so this one exists, and fails clearly if an image model ever asks for it.
module.exports = function sharpUnavailable() {
  throw new Error('Agent Memory runs text models only: image input is not supported (the image library is not shipped).');
};
