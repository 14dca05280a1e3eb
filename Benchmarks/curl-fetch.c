// The libcurl peer for `statline bench fetch`: THREADS threads, one easy handle each (keep-alive),
// fetching distinct URLs from a loopback server. Build and run (libcurl4-openssl-dev):
//   cc -O2 Benchmarks/curl-fetch.c -lcurl -lpthread -o /tmp/curl-fetch
//   /tmp/curl-fetch http://127.0.0.1:18080/page.html 20000 8
#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char *base;
static int total, threads;

static size_t discard(char *data, size_t size, size_t count, void *user) {
  (void)data;
  (void)user;
  return size * count;
}

static void *worker(void *arg) {
  long index = (long)arg;
  CURL *curl = curl_easy_init();
  char url[512];
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "gzip, deflate");
  for (int i = index; i < total; i += threads) {
    snprintf(url, sizeof url, "%s?n=%d", base, i);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    if (curl_easy_perform(curl) != CURLE_OK) fprintf(stderr, "failed: %s\n", url);
  }
  curl_easy_cleanup(curl);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 4) return 64;
  base = argv[1];
  total = atoi(argv[2]);
  threads = atoi(argv[3]);
  curl_global_init(CURL_GLOBAL_DEFAULT);
  pthread_t ids[256];
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (long t = 0; t < threads; t++) pthread_create(&ids[t], NULL, worker, (void *)t);
  for (int t = 0; t < threads; t++) pthread_join(ids[t], NULL);
  clock_gettime(CLOCK_MONOTONIC, &end);
  double seconds = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
  printf("libcurl: %d requests, %d threads, %.2f s: %.0f requests/s\n", total, threads, seconds, total / seconds);
  return 0;
}
