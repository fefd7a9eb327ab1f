# ldpgraph_set_warnings(target): the project's warning set, applied per target
# (never as global flags), plus the sanitizer flags when LDPGRAPH_SANITIZE is on.
function(ldpgraph_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -pedantic)
  if(LDPGRAPH_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(LDPGRAPH_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined
                                             -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
