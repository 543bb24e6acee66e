"""Stage 3, admit: what the API server does on create: conversion, CRD defaults and checks, KServe's webhooks."""
