# Writes the C library's call depth table (cmake -P, at build time): the
# output of utils/libc-depth for each library of LIBRARIES, concatenated,
# which the plugin reads (-x86-rsb-stuff-libc-depths, in rsb-stuff.cfg).
#   cmake -DTOOL=utils/libc-depth -DLIBRARIES=a|b -DOUTPUT=... -P write-depths.cmake
string(REPLACE "|" ";" libraries "${LIBRARIES}")
set(table "")
foreach(library IN LISTS libraries)
  execute_process(COMMAND ${TOOL} ${library} -o -
    OUTPUT_VARIABLE depths RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "libc-depth failed on ${library}")
  endif()
  string(APPEND table "${depths}")
endforeach()
file(WRITE ${OUTPUT}.tmp "${table}")
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
