# revision.cmake: writes OUT, a header defining GB_GIT_REVISION as `git describe --always
# --dirty` of SRC now (or "unknown"), at every build, and rewrites it only when the revision
# changed, so that a point names the revision its binary was built from without a rebuild each
# time. Run as cmake -DSRC=... -DOUT=... -DGIT=... -P revision.cmake.
set(rev "unknown")
if(GIT)
  execute_process(COMMAND ${GIT} describe --always --dirty WORKING_DIRECTORY ${SRC}
    OUTPUT_VARIABLE described RESULT_VARIABLE result OUTPUT_STRIP_TRAILING_WHITESPACE
    ERROR_QUIET)
  if(result EQUAL 0 AND described)
    set(rev "${described}")
  endif()
endif()
set(text "#define GB_GIT_REVISION \"${rev}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
