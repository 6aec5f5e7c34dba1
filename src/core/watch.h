/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The host watch (watch.c): in a job of several hosts, each PE holds a TCP connection with
 * kernel keepalives to a PE of the next host, so a host whose network goes down, or whose
 * processes all die, ends the job within SYMM_NET_TIMEOUT seconds with one report naming the
 * host and its PEs, instead of leaving the PEs blocked in the network for as long as TCP
 * retransmits.
 */
#ifndef SYMM_WATCH_H
#define SYMM_WATCH_H

#include <stddef.h>

/* After the nodes are known, before the network starts: where the job spans hosts and
 * SYMM_NET_TIMEOUT is not 0, opens this PE's watch socket and writes its card (at most `cap`
 * bytes) for the network's start exchange to carry; returns its length, 0 for no watch. */
size_t symm_watch_card(void *card, size_t cap);
/* Starts the watch with every PE's card, back to back in rank order; NULL: no watch. */
void symm_watch_start(const void *cards);
/* This PE leaves the job (finalize, or a fatal error that brings the job down): its
 * connections say so first, so the peers do not take its end for a lost host. `wait` joins
 * the watch's thread and closes its sockets (finalize); a fatal path only says goodbye. */
void symm_watch_leave(int wait);

#endif
