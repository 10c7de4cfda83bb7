# Writes the rsb-clang launcher (cmake -P, at build time): utils/rsb-clang.in
# with RSB_LLVM_BIN and RSB_REL_LIBDIR, and a stamp line of the SHA-256 of
# each file in RSB_STAMP_FILES (the plugin, the configuration files), so that
# the launcher changes, for compiler caches, exactly when one of them does.
#   cmake -DTEMPLATE=... -DOUTPUT=... -DRSB_LLVM_BIN=... -DRSB_REL_LIBDIR=...
#         -DRSB_STAMP_FILES=a|b -P write-launcher.cmake
set(RSB_STAMP "rsb-stuff build:")
string(REPLACE "|" ";" stamp_files "${RSB_STAMP_FILES}")
foreach(file IN LISTS stamp_files)
  file(SHA256 ${file} hash)
  get_filename_component(name ${file} NAME)
  string(APPEND RSB_STAMP " ${name}=${hash}")
endforeach()
# configure_file leaves an unchanged launcher untouched (its mtime too).
configure_file(${TEMPLATE} ${OUTPUT} @ONLY
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                   GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
