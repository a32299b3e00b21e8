# Copy the cubins nvcc kept (FROM) into TO, replacing what an earlier build left.
file(GLOB cubins "${FROM}/*.cubin")
file(REMOVE_RECURSE "${TO}")
file(MAKE_DIRECTORY "${TO}")
foreach(c ${cubins})
  file(COPY "${c}" DESTINATION "${TO}")
endforeach()
