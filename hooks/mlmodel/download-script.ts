/**
 * The shell script of the download Job (sh, curl, tar, unzip). It downloads
 * $MODEL_URL into $MODEL_DIR (/mnt/model/<hash>) laid out as TensorFlow Serving expects
 * (`<base>/<version>/`), through a temporary directory so that a half-written model is
 * never seen; it removes the models of other URLs (8-hex directories only, so `lost+found`
 * and anything else on the claim stay) except $KEEP_HASH, the one still served.
 *
 * Archives: a SavedModel at the top (or in one top directory) becomes version 1; numeric
 * version directories are kept as they are; anything else is put in version 1 unchanged.
 */
export const DOWNLOAD_SCRIPT = String.raw`set -eu
root=$(dirname "$MODEL_DIR")
tmp="$root/.partial-$(basename "$MODEL_DIR")"
hex='[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'
for old in "$root"/$hex "$root"/.partial-$hex; do
  case "$(basename "$old")" in
    "$(basename "$MODEL_DIR")"|"$KEEP_HASH") ;;
    *) rm -rf "$old" || echo "could not remove $old" ;;
  esac
done
rm -rf "$tmp"
mkdir -p "$tmp/unpacked"
path="${'$'}{MODEL_URL%%[?#]*}"
file="$(basename "$path")"
[ -n "$file" ] || file=model
echo "downloading $MODEL_URL"
# curl verifies the server's certificate (busybox wget does not): a model is code we run.
curl -fsSL --retry 3 --connect-timeout 60 -o "$tmp/$file" "$MODEL_URL"
case "$path" in
  *.tar.gz|*.tgz) tar -xzf "$tmp/$file" -C "$tmp/unpacked"; rm -f "$tmp/$file" ;;
  *.zip) unzip -q -o "$tmp/$file" -d "$tmp/unpacked"; rm -f "$tmp/$file" ;;
  *) mv "$tmp/$file" "$tmp/unpacked/" ;;
esac
# macOS archivers add resource forks beside the model; TF Serving would see a second entry.
rm -rf "$tmp/unpacked/__MACOSX"
src="$tmp/unpacked"
entries=$(ls -A "$src")
if [ "$(echo "$entries" | wc -l)" -eq 1 ] && [ -d "$src/$entries" ] && ! echo "$entries" | grep -qx '[0-9][0-9]*'; then
  src="$src/$entries"
fi
mkdir -p "$tmp/model"
if ls -A "$src" | grep -qx '[0-9][0-9]*'; then
  mv "$src"/* "$tmp/model/"
else
  mv "$src" "$tmp/model/1"
fi
rm -rf "$MODEL_DIR"
mv "$tmp/model" "$MODEL_DIR"
rm -rf "$tmp"
echo "model ready in $MODEL_DIR:"
ls -R "$MODEL_DIR" | head -50
`;
