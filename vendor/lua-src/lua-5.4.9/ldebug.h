/*
** $Id: ldebug.h $
** Auxiliary functions from Debug Interface module
** See Copyright Notice in lua.h
*/

#ifndef ldebug_h
#define ldebug_h


#include "lstate.h"


#define pcRel(pc, p)	(cast_int((pc) - (p)->code) - 1)


/* Active Lua function (given call info) */
#define ci_func(ci)		(clLvalue(s2v((ci)->func.p)))


#define resethookcount(L)	(L->hookcount = L->basehookcount)

/*
** HEXFORGE PATCH (see PATCHES.md): a count hook no longer turns on
** per-instruction tracing. 'luaV_execute' counts the instructions of each
** straight run of code when the run ends (at a jump, a call or a return),
** plus one per call, with 'luaG_countsteps'. A count that uses up
** 'hookcount' leaves it at 0 or below and sets the frame's trap; the next
** instruction fetch then calls the hook from 'luaG_traceexec', once per
** 'basehookcount' instructions counted, as a per-instruction count would.
** 'tracemask' is the part of 'hookmask' that needs per-instruction tracing
** or call/return processing.
*/
#define tracemask(L)	((L)->hookmask & ~LUA_MASKCOUNT)

#define luaG_countsteps(L,ci,n) \
  { if (l_unlikely((L)->hookmask & LUA_MASKCOUNT)) { \
      (L)->hookcount -= cast_int(n); \
      if ((L)->hookcount <= 0) (ci)->u.l.trap = 1; } }

/*
** HEXFORGE PATCH: as 'luaG_countsteps', and also folds in the work noted
** by 'luaG_addwork' (below). Used where code can repeat: at the start of
** a function and where a loop jumps back. (Every repetition passes one
** of them; straight code between them is bounded by the code's size.)
*/
#define luaG_countloop(L,ci,n) \
  { if (l_unlikely((L)->hookmask & LUA_MASKCOUNT)) { \
      (L)->hookcount -= cast_int(n); \
      if (l_unlikely(luaG_hfwork != 0)) luaG_foldwork(L); \
      if ((L)->hookcount <= 0) (ci)->u.l.trap = 1; } }

/*
** HEXFORGE PATCH: work done outside the instruction count. One
** instruction can do far more than one step of work: compare or copy a
** long string, scan a sparse table, allocate a big block, run a library
** loop (a pattern match, 'string.rep', 'table.move'). Such work is
** charged as steps of the count, so the count hook (the host's budget)
** still bounds the time a script takes.
** - 'luaG_addwork' notes work where no hook may run (the VM's internals,
**   the allocator, code without a 'lua_State'). It is kept per OS thread
**   and folded into 'hookcount' at the next function start or loop jump
**   ('luaG_countloop') or charge; 'lua_sethook' discards what is left.
** - 'luaG_charge' (the C libraries, as 'lua_hexforge_charge') charges
**   and calls the count hook at once if the count is used up, so a
**   single library call with an unbounded loop is stopped inside it.
*/
#if defined(__GNUC__) || defined(__clang__)
#define l_hfthread	__thread
#elif defined(_MSC_VER)
#define l_hfthread	__declspec(thread)
#else
#define l_hfthread	_Thread_local
#endif

LUAI_DDEC(l_hfthread l_mem luaG_hfwork;)

/* (Nothing is stored for no work: most calls on hot paths note none.) */
l_sinline void luaG_addwork (size_t n) {
  if (n != 0) luaG_hfwork += cast(l_mem, n);
}

LUAI_FUNC void luaG_foldwork (lua_State *L);
LUAI_FUNC void luaG_charge (lua_State *L, size_t n);

/*
** mark for entries in 'lineinfo' array that has absolute information in
** 'abslineinfo' array
*/
#define ABSLINEINFO	(-0x80)


/*
** MAXimum number of successive Instructions WiTHout ABSolute line
** information. (A power of two allows fast divisions.)
*/
#if !defined(MAXIWTHABS)
#define MAXIWTHABS	128
#endif


LUAI_FUNC int luaG_getfuncline (const Proto *f, int pc);
LUAI_FUNC const char *luaG_findlocal (lua_State *L, CallInfo *ci, int n,
                                                    StkId *pos);
LUAI_FUNC l_noret luaG_typeerror (lua_State *L, const TValue *o,
                                                const char *opname);
LUAI_FUNC l_noret luaG_callerror (lua_State *L, const TValue *o);
LUAI_FUNC l_noret luaG_forerror (lua_State *L, const TValue *o,
                                               const char *what);
LUAI_FUNC l_noret luaG_concaterror (lua_State *L, const TValue *p1,
                                                  const TValue *p2);
LUAI_FUNC l_noret luaG_opinterror (lua_State *L, const TValue *p1,
                                                 const TValue *p2,
                                                 const char *msg);
LUAI_FUNC l_noret luaG_tointerror (lua_State *L, const TValue *p1,
                                                 const TValue *p2);
LUAI_FUNC l_noret luaG_ordererror (lua_State *L, const TValue *p1,
                                                 const TValue *p2);
LUAI_FUNC l_noret luaG_runerror (lua_State *L, const char *fmt, ...);
LUAI_FUNC l_noret luaG_frozenerror (lua_State *L);
LUAI_FUNC const char *luaG_addinfo (lua_State *L, const char *msg,
                                                  TString *src, int line);
LUAI_FUNC l_noret luaG_errormsg (lua_State *L);
LUAI_FUNC int luaG_traceexec (lua_State *L, const Instruction *pc);
LUAI_FUNC int luaG_tracecall (lua_State *L);


#endif
